ALTER TABLE `activity_sessions` ADD `status` text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE `activity_sessions` ADD `changed_at` integer;--> statement-breakpoint
ALTER TABLE `activity_sessions` ADD `original_starts_at` integer;--> statement-breakpoint
ALTER TABLE `activity_sessions` ADD `refund_until` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `is_operator` integer DEFAULT false NOT NULL;