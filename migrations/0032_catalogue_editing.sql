-- The catalogue is edited from the console: an activity is a draft (status 0, hidden everywhere a
-- buyer looks) until it is published, when `status` takes the sale state the editor chose
-- (`sale_status`); unpublishing sets it back to 0. Keeping the hiding in `status` lets every read
-- path and the search index's triggers (migrations 0018, 0021, 0022, 0025: status 0 is the hidden
-- tier) treat an unpublished activity as they already treat a draft.
ALTER TABLE `activities` ADD `sale_status` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
UPDATE `activities` SET `sale_status` = `status` WHERE `status` <> 0;
--> statement-breakpoint
ALTER TABLE `activities` ADD `published_at` integer;
--> statement-breakpoint
UPDATE `activities` SET `published_at` = `created_at` WHERE `status` <> 0;
--> statement-breakpoint
ALTER TABLE `activities` ADD `buying_notes_en` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `activities` ADD `buying_notes_zh_hant` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `activities` ADD `buying_notes_zh_hans` text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- A session's own sale window; the activity's `sale_starts_at` is the earliest of its sessions'.
ALTER TABLE `activity_sessions` ADD `on_sale_at` integer;
--> statement-breakpoint
ALTER TABLE `activity_sessions` ADD `off_sale_at` integer;
--> statement-breakpoint
UPDATE `activity_sessions` SET
	`on_sale_at` = (SELECT a.`sale_starts_at` FROM `activities` a WHERE a.`id` = `activity_sessions`.`activity_id`),
	`off_sale_at` = `starts_at`;
--> statement-breakpoint
-- How many tickets of the tier the show has; a quota never drops below the tickets already ordered.
ALTER TABLE `ticket_tiers` ADD `quota` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `ticket_tiers` SET `quota` = coalesce((SELECT sum(l.`quantity_total`) FROM `listings` l WHERE l.`tier_id` = `ticket_tiers`.`id`), 0);
--> statement-breakpoint
-- A venue's own map link (https only); null: the link made from its coordinates (domain/venue.ts).
ALTER TABLE `venues` ADD `map_url` text;
