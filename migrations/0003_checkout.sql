CREATE TABLE `payment_webhook_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_payments` (
	`ref` text PRIMARY KEY NOT NULL,
	`merchant_ref` text NOT NULL,
	`method` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`return_url` text NOT NULL,
	`notify_url` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `seller_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `orders` ADD `paid_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `ticketed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_amount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_seller_idx` ON `orders` (`seller_id`,`status`);--> statement-breakpoint
ALTER TABLE `payments` ADD `paid_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `refunded_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `seat` text;--> statement-breakpoint
-- An unpaid order that closes gives its tickets and its coupon back in the same statement that
-- closes it, so no path (user cancel, lazy expiry, the cron sweep) can forget to release the hold.
CREATE TRIGGER `orders_release_hold` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` = 'pending_payment' AND NEW.`status` = 'cancelled'
BEGIN
	UPDATE `listings` SET `quantity_available` = `quantity_available` + NEW.`quantity` WHERE `id` = NEW.`listing_id`;
	UPDATE `user_coupons` SET `status` = 'unused', `order_id` = NULL WHERE `id` = NEW.`user_coupon_id` AND `status` = 'locked';
END;
