CREATE TABLE `listing_tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listing_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`buyer_order_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`buyer_order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_tickets_active_ticket_idx` ON `listing_tickets` (`ticket_id`) WHERE active = 1;--> statement-breakpoint
CREATE INDEX `listing_tickets_listing_idx` ON `listing_tickets` (`listing_id`,`buyer_order_id`);--> statement-breakpoint
CREATE TABLE `seller_payouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seller_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`listing_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`platform_fee` integer NOT NULL,
	`currency` text NOT NULL,
	`payable_after` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `seller_payouts_order_id_unique` ON `seller_payouts` (`order_id`);--> statement-breakpoint
CREATE INDEX `seller_payouts_seller_idx` ON `seller_payouts` (`seller_id`,`status`);