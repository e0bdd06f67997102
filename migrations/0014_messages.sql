-- Issue 18: messages to buyers and sellers go through an outbox table and a queue, and a sold-out tier
-- gets a waitlist. Each state change worth telling writes its `messages` row from a trigger below, in
-- the same statement as the change: the row exists exactly when the change happened, and its
-- `dedupe_key` (the change's own identity) makes a retried or racing change write it once.
ALTER TABLE `dev_outbox` ADD `html` text;--> statement-breakpoint
ALTER TABLE `dev_outbox` ADD `message_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `dev_outbox_message_idx` ON `dev_outbox` (`message_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`order_id` integer,
	`payload` text DEFAULT '{}' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`last_error` text,
	`enqueued_at` integer,
	`sent_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_dedupe_key_unique` ON `messages` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `messages_status_idx` ON `messages` (`status`,`enqueued_at`);--> statement-breakpoint
CREATE INDEX `messages_user_idx` ON `messages` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `waitlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tier_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tier_id`) REFERENCES `ticket_tiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `waitlist_entries_tier_idx` ON `waitlist_entries` (`tier_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `waitlist_entries_user_idx` ON `waitlist_entries` (`user_id`,`status`);--> statement-breakpoint
CREATE TABLE `waitlist_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`listing_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`expires_at` integer NOT NULL,
	`order_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `waitlist_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_offers_entry_id_unique` ON `waitlist_offers` (`entry_id`);--> statement-breakpoint
CREATE INDEX `waitlist_offers_status_idx` ON `waitlist_offers` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `waitlist_offers_user_idx` ON `waitlist_offers` (`user_id`,`status`);--> statement-breakpoint
-- How a message reaches a user: by email when the account has one, else by SMS to its phone.
CREATE VIEW `message_recipients` AS
SELECT `id` AS `user_id`,
	CASE WHEN `email` IS NOT NULL THEN 'email' ELSE 'sms' END AS `channel`,
	COALESCE(`email`, `phone_country_code` || ' ' || `phone`) AS `target`
FROM `users` WHERE `email` IS NOT NULL OR `phone` IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `messages_order_placed` AFTER INSERT ON `orders`
WHEN NEW.`status` = 'pending_payment'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'order_placed:' || NEW.`id`, 'order_placed', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, json_object('deadline', NEW.`payment_deadline`), NEW.`created_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_payment_received` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` = 'pending_payment' AND NEW.`status` = 'pending_ticketing'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'payment_received:' || NEW.`id`, 'payment_received', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, '{}', NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_order_ticketed` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` = 'pending_ticketing' AND NEW.`status` = 'pending_receipt'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'tickets_issued:' || NEW.`id`, 'tickets_issued', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, '{}', NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` = 'e_ticket'
	ON CONFLICT (`dedupe_key`) DO NOTHING;
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'courier_shipped:' || NEW.`id`, 'courier_shipped', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, json_object('trackingNo', NEW.`tracking_no`), NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` = 'courier'
	ON CONFLICT (`dedupe_key`) DO NOTHING;
	-- Pickup details go by SMS to the person named to collect the tickets (SPEC.md, on-site pickup).
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'pickup_details:' || NEW.`id`, 'pickup_details', r.`user_id`, CASE WHEN NEW.`taker_phone` IS NOT NULL THEN 'sms' ELSE r.`channel` END, COALESCE(NEW.`taker_phone`, r.`target`), NEW.`id`, json_object('pickupAddress', NEW.`pickup_address`, 'pickupTime', NEW.`pickup_time`), NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` IN ('on_site', 'self_pickup')
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_order_expired` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` = 'pending_payment' AND NEW.`status` = 'cancelled' AND NEW.`cancel_reason` = 'timeout'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'order_expired:' || NEW.`id`, 'order_expired', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, '{}', NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_refund_made` AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` = 'succeeded' AND NEW.`status` = 'refunded'
BEGIN
	-- The money moved back: the amount is the order's recorded refund when one was set first (a show change), else the whole payment.
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'refund_made:' || NEW.`id`, 'refund_made', r.`user_id`, r.`channel`, r.`target`, o.`id`, json_object('amount', CASE WHEN o.`refund_amount` > 0 THEN o.`refund_amount` ELSE NEW.`amount` END), NEW.`updated_at`
	FROM `orders` o, `message_recipients` r WHERE r.`user_id` = o.`user_id` AND o.`id` = NEW.`order_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_payment_failed` AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` = 'created' AND NEW.`status` = 'failed'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'payment_failed:' || NEW.`id`, 'payment_failed', r.`user_id`, r.`channel`, r.`target`, o.`id`, json_object('deadline', o.`payment_deadline`), NEW.`updated_at`
	FROM `orders` o, `message_recipients` r WHERE r.`user_id` = o.`user_id` AND o.`id` = NEW.`order_id` AND o.`status` = 'pending_payment'
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_show_cancelled` AFTER UPDATE OF `status` ON `activity_sessions`
WHEN NEW.`status` = 'cancelled' AND OLD.`status` <> 'cancelled'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'show_cancelled:' || o.`id`, 'show_cancelled', r.`user_id`, r.`channel`, r.`target`, o.`id`, '{}', COALESCE(NEW.`changed_at`, unixepoch() * 1000)
	FROM `orders` o, `message_recipients` r WHERE r.`user_id` = o.`user_id` AND o.`session_id` = NEW.`id` AND o.`paid_at` IS NOT NULL
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_show_postponed` AFTER UPDATE OF `starts_at` ON `activity_sessions`
WHEN NEW.`status` = 'postponed' AND NEW.`starts_at` <> OLD.`starts_at`
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'show_postponed:' || o.`id` || ':' || NEW.`starts_at`, 'show_postponed', r.`user_id`, r.`channel`, r.`target`, o.`id`, json_object('startsAt', NEW.`starts_at`, 'refundUntil', NEW.`refund_until`), COALESCE(NEW.`changed_at`, unixepoch() * 1000)
	FROM `orders` o, `message_recipients` r WHERE r.`user_id` = o.`user_id` AND o.`session_id` = NEW.`id` AND o.`status` IN ('pending_ticketing', 'pending_receipt', 'completed')
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_listing_sold` AFTER INSERT ON `seller_payouts`
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'listing_sold:' || NEW.`order_id`, 'listing_sold', r.`user_id`, r.`channel`, r.`target`, NEW.`order_id`, json_object('amount', NEW.`amount`, 'currency', NEW.`currency`), NEW.`created_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`seller_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_lottery_result` AFTER UPDATE OF `status` ON `lotteries`
WHEN NEW.`status` = 'drawn' AND OLD.`status` <> 'drawn'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'lottery_result:' || e.`id`, 'lottery_result', r.`user_id`, r.`channel`, r.`target`, NULL, json_object('lotteryId', NEW.`id`, 'won', EXISTS (SELECT 1 FROM `lottery_codes` c WHERE c.`entry_id` = e.`id` AND c.`is_winner` = 1)), COALESCE(NEW.`drawn_at`, unixepoch() * 1000)
	FROM `lottery_entries` e, `message_recipients` r WHERE r.`user_id` = e.`user_id` AND e.`lottery_id` = NEW.`id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `messages_sale_started` AFTER UPDATE OF `status` ON `activities`
WHEN OLD.`status` NOT IN (1, 4) AND NEW.`status` IN (1, 4) AND NEW.`sale_starts_at` <= unixepoch() * 1000
BEGIN
	-- Notify-me subscribers (favourite type 1) hear that the show went on sale; the sweep covers a sale start time passing.
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'sale_started:' || NEW.`id` || ':' || r.`user_id`, 'sale_started', r.`user_id`, r.`channel`, r.`target`, json_object('activityId', NEW.`id`), unixepoch() * 1000
	FROM `favourites` f, `message_recipients` r WHERE r.`user_id` = f.`user_id` AND f.`activity_id` = NEW.`id` AND f.`type` = 1
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;
