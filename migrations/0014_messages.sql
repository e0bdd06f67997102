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
CREATE INDEX `waitlist_offers_user_idx` ON `waitlist_offers` (`user_id`,`status`);
