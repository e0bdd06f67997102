CREATE TABLE `admissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`session_id` integer NOT NULL,
	`staff_id` integer NOT NULL,
	`method` text NOT NULL,
	`offline` integer DEFAULT false NOT NULL,
	`admitted_at` integer NOT NULL,
	`recorded_at` integer NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `activity_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staff_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admissions_ticket_unique` ON `admissions` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `admissions_session_idx` ON `admissions` (`session_id`);--> statement-breakpoint
DROP INDEX `tickets_code_hash_idx`;--> statement-breakpoint
ALTER TABLE `tickets` ADD `entry_nonce` text;--> statement-breakpoint
-- Issue 19: the static entry code gives way to a rotating one. Every e-ticket (the ones with a code)
-- gets its entry nonce, from which its entry secret is derived; a paper ticket keeps none.
UPDATE `tickets` SET `entry_nonce` = lower(hex(randomblob(16))) WHERE `code_hash` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` DROP COLUMN `code_hash`;