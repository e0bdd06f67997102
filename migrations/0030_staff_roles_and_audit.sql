-- The marketplace's staff have roles (operator, editor, customer service) instead of one operator
-- flag, and every change they make is kept in the audit log: who, when, what, before and after.
CREATE TABLE `staff_roles` (
	`user_id` integer NOT NULL REFERENCES `users`(`id`),
	`role` text NOT NULL CHECK (`role` IN ('operator', 'editor', 'customer_service')),
	`granted_by` integer REFERENCES `users`(`id`),
	`granted_at` integer NOT NULL,
	PRIMARY KEY (`user_id`, `role`)
);
--> statement-breakpoint
INSERT INTO `staff_roles` (`user_id`, `role`, `granted_by`, `granted_at`)
SELECT `id`, 'operator', NULL, `created_at` FROM `users` WHERE `is_operator` = 1;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `is_operator`;
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer REFERENCES `users`(`id`),
	`at` integer NOT NULL,
	`action` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`before_json` text,
	`after_json` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`, `id`);
--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`, `at`);
--> statement-breakpoint
CREATE INDEX `audit_log_subject_idx` ON `audit_log` (`subject_type`, `subject_id`, `at`);
