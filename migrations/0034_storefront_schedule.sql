-- Storefront curation from the console: each home banner, hot search word, pop-up box, coupon
-- campaign and lottery can be scheduled ahead (a start and an end) and retired; buyers' reads show
-- only what is live at the time of the read. Rows made before this migration are live from the
-- epoch and never end, as before.
ALTER TABLE `banners` ADD `starts_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `banners` ADD `ends_at` integer;
--> statement-breakpoint
ALTER TABLE `banners` ADD `retired_at` integer;
--> statement-breakpoint
ALTER TABLE `hot_keywords` ADD `starts_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `hot_keywords` ADD `ends_at` integer;
--> statement-breakpoint
ALTER TABLE `hot_keywords` ADD `retired_at` integer;
--> statement-breakpoint
ALTER TABLE `pop_up_boxes` ADD `retired_at` integer;
--> statement-breakpoint
-- Entries open at `entry_opens_at` and close at `entry_closes_at`, or at the draw when it is null.
ALTER TABLE `lotteries` ADD `entry_opens_at` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `lotteries` ADD `entry_closes_at` integer;
--> statement-breakpoint
ALTER TABLE `lotteries` ADD `retired_at` integer;
--> statement-breakpoint
-- A campaign offers one coupon (its terms and validity on the coupon's row) to an audience, up to
-- `claim_limit` claims while it runs; retiring it stops new claims, coupons already held stay good.
CREATE TABLE `coupon_campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`coupon_id` integer NOT NULL REFERENCES `coupons`(`id`),
	`audience` text NOT NULL CHECK (`audience` IN ('all', 'new_buyers', 'city')),
	`city_id` integer REFERENCES `cities`(`id`),
	`claim_limit` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`retired_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupon_campaigns_coupon_idx` ON `coupon_campaigns` (`coupon_id`);
--> statement-breakpoint
-- A campaign's claims are counted by coupon inside the claiming statement.
CREATE INDEX `user_coupons_coupon_idx` ON `user_coupons` (`coupon_id`, `user_id`);
