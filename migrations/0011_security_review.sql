CREATE TABLE `gate_staff` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` integer NOT NULL,
	`seller_id` integer NOT NULL,
	`staff_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `activity_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staff_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gate_staff_unique` ON `gate_staff` (`session_id`,`seller_id`,`staff_id`);--> statement-breakpoint
CREATE INDEX `gate_staff_staff_idx` ON `gate_staff` (`staff_id`,`session_id`);--> statement-breakpoint
CREATE TABLE `login_failures` (
	`account_key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`locked_until` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `invitations` ADD `reward_state` text DEFAULT 'waiting' NOT NULL;--> statement-breakpoint
ALTER TABLE `invitations` ADD `reward_order_id` integer;--> statement-breakpoint
ALTER TABLE `invitations` ADD `rewarded_at` integer;--> statement-breakpoint
CREATE INDEX `invitations_inviter_reward_idx` ON `invitations` (`inviter_id`,`rewarded_at`);--> statement-breakpoint
ALTER TABLE `user_coupons` ADD `invitation_id` integer;--> statement-breakpoint
CREATE INDEX `user_coupons_invitation_idx` ON `user_coupons` (`invitation_id`);--> statement-breakpoint
-- Invitations made before this change rewarded their inviter when the friend joined: they count as granted.
UPDATE `invitations` SET `reward_state` = 'granted', `rewarded_at` = `created_at`;
