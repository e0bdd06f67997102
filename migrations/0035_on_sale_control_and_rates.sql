-- Exchange rates say where each came from: the demo seed, the rates provider's daily refresh, or an
-- operator who pinned it by hand (a pinned rate is not overwritten by the refresh until unpinned).
ALTER TABLE `fx_rates` ADD `source` text DEFAULT 'seed' NOT NULL CHECK (`source` IN ('seed', 'provider', 'manual'));
--> statement-breakpoint
ALTER TABLE `fx_rates` ADD `fetched_at` integer;
--> statement-breakpoint
ALTER TABLE `fx_rates` ADD `pinned_by` integer REFERENCES `users`(`id`);
--> statement-breakpoint
ALTER TABLE `fx_rates` ADD `pinned_at` integer;
--> statement-breakpoint
-- A session's waiting room admits buyers at the rate an operator set here, or at the configured
-- default when the session has no row. Its own table: a rate change is no catalogue write, so it
-- neither bumps the page cache's version nor meets the catalogue editor's writes of the session.
CREATE TABLE `session_admission_rates` (
	`session_id` integer PRIMARY KEY NOT NULL REFERENCES `activity_sessions`(`id`),
	`per_minute` integer NOT NULL CHECK (`per_minute` >= 0),
	`set_by` integer REFERENCES `users`(`id`),
	`set_at` integer NOT NULL
);
