CREATE TABLE `activities` (
	`id` integer PRIMARY KEY NOT NULL,
	`category_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`venue_id` integer NOT NULL,
	`artist_id` integer,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`description_en` text NOT NULL,
	`description_zh_hant` text NOT NULL,
	`description_zh_hans` text NOT NULL,
	`poster` text NOT NULL,
	`status` integer NOT NULL,
	`is_hot` integer DEFAULT false NOT NULL,
	`is_rare` integer DEFAULT false NOT NULL,
	`real_name_required` integer DEFAULT false NOT NULL,
	`num_min` integer DEFAULT 1 NOT NULL,
	`num_max` integer DEFAULT 6 NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`sale_starts_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`venue_id`) REFERENCES `venues`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`artist_id`) REFERENCES `artists`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `activities_city_starts_idx` ON `activities` (`city_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `activities_category_starts_idx` ON `activities` (`category_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `activity_sessions` (
	`id` integer PRIMARY KEY NOT NULL,
	`activity_id` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_activity_idx` ON `activity_sessions` (`activity_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`phone_country_code` text NOT NULL,
	`phone` text NOT NULL,
	`country_code` text NOT NULL,
	`province` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`district` text DEFAULT '' NOT NULL,
	`street` text NOT NULL,
	`postcode` text DEFAULT '' NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `addresses_user_idx` ON `addresses` (`user_id`);--> statement-breakpoint
CREATE TABLE `artists` (
	`id` integer PRIMARY KEY NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`pinyin` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `attendees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`nationality` text NOT NULL,
	`id_card_type` text NOT NULL,
	`id_card_no` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attendees_user_idx` ON `attendees` (`user_id`);--> statement-breakpoint
CREATE TABLE `auth_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_sessions_token_hash_unique` ON `auth_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_sessions_user_idx` ON `auth_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `banners` (
	`id` integer PRIMARY KEY NOT NULL,
	`city_id` integer,
	`activity_id` integer,
	`poster` text NOT NULL,
	`url` text NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`pinyin` text NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_slug_unique` ON `categories` (`slug`);--> statement-breakpoint
CREATE TABLE `cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`country_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`first_letter` text NOT NULL,
	`is_hot_city` integer DEFAULT false NOT NULL,
	`is_china` integer DEFAULT false NOT NULL,
	`city_code` text NOT NULL,
	`time_zone` text NOT NULL,
	`longitude` real NOT NULL,
	`latitude` real NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`country_id`) REFERENCES `countries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cities_city_code_unique` ON `cities` (`city_code`);--> statement-breakpoint
CREATE INDEX `cities_country_idx` ON `cities` (`country_id`);--> statement-breakpoint
CREATE TABLE `countries` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`calling_code` text NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `countries_code_unique` ON `countries` (`code`);--> statement-breakpoint
CREATE TABLE `coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`kind` text NOT NULL,
	`fold_tenths` integer,
	`amount` integer,
	`currency` text,
	`min_spend` integer DEFAULT 0 NOT NULL,
	`new_user_only` integer DEFAULT false NOT NULL,
	`bundle_count` integer DEFAULT 1 NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer NOT NULL,
	`purpose` text DEFAULT 'general' NOT NULL,
	`category_id` integer,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coupons_code_unique` ON `coupons` (`code`);--> statement-breakpoint
CREATE TABLE `currencies` (
	`code` text PRIMARY KEY NOT NULL,
	`desc` text NOT NULL,
	`currency_type` integer NOT NULL,
	`minor_digits` integer NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `currencies_currency_type_unique` ON `currencies` (`currency_type`);--> statement-breakpoint
CREATE TABLE `dev_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `favourites` (
	`user_id` integer NOT NULL,
	`activity_id` integer NOT NULL,
	`type` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `activity_id`, `type`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `fx_rates` (
	`quote` text PRIMARY KEY NOT NULL,
	`per_hkd_micros` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`quote`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `hot_keywords` (
	`id` integer PRIMARY KEY NOT NULL,
	`locale` text NOT NULL,
	`keyword` text NOT NULL,
	`landing_page_type` integer DEFAULT 1 NOT NULL,
	`landing_page_params` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inviter_id` integer NOT NULL,
	`invitee_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`inviter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invitee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_invitee_id_unique` ON `invitations` (`invitee_id`);--> statement-breakpoint
CREATE TABLE `languages` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`language_type` integer NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `languages_code_unique` ON `languages` (`code`);--> statement-breakpoint
CREATE TABLE `listings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tier_id` integer NOT NULL,
	`seller_id` integer NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`quantity_total` integer NOT NULL,
	`quantity_available` integer NOT NULL,
	`seating` text NOT NULL,
	`delivery_types` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`source_order_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`tier_id`) REFERENCES `ticket_tiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`seller_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `listings_tier_idx` ON `listings` (`tier_id`,`status`,`price`);--> statement-breakpoint
CREATE INDEX `listings_seller_idx` ON `listings` (`seller_id`);--> statement-breakpoint
CREATE TABLE `location_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`device_id` text,
	`city_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `lotteries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`activity_id` integer NOT NULL,
	`tier_id` integer NOT NULL,
	`prize_count` integer NOT NULL,
	`max_codes_per_entry` integer NOT NULL,
	`draw_at` integer NOT NULL,
	`seed_commitment` text NOT NULL,
	`seed` text,
	`status` text DEFAULT 'open' NOT NULL,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tier_id`) REFERENCES `ticket_tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `lottery_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` integer NOT NULL,
	`code` text NOT NULL,
	`helper_user_id` integer,
	`is_winner` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `lottery_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`helper_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_codes_code_idx` ON `lottery_codes` (`entry_id`,`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_help_idx` ON `lottery_codes` (`entry_id`,`helper_user_id`);--> statement-breakpoint
CREATE TABLE `lottery_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`lottery_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`share_token` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`lottery_id`) REFERENCES `lotteries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_entries_share_token_unique` ON `lottery_entries` (`share_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_entries_user_idx` ON `lottery_entries` (`lottery_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `order_attendees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`name` text NOT NULL,
	`nationality` text NOT NULL,
	`id_card_type` text NOT NULL,
	`id_card_no` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_no` text NOT NULL,
	`user_id` integer NOT NULL,
	`listing_id` integer NOT NULL,
	`activity_id` integer NOT NULL,
	`session_id` integer NOT NULL,
	`tier_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`status` text NOT NULL,
	`payment_substatus` text,
	`currency` text NOT NULL,
	`fx_per_hkd_micros` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`ticket_amount` integer NOT NULL,
	`service_fee` integer NOT NULL,
	`postage` integer NOT NULL,
	`coupon_discount` integer DEFAULT 0 NOT NULL,
	`total` integer NOT NULL,
	`user_coupon_id` integer,
	`delivery_type` text NOT NULL,
	`payment_method` text,
	`shipping_address` text,
	`taker_name` text,
	`taker_phone` text,
	`pickup_address` text,
	`pickup_time` integer,
	`tracking_no` text,
	`payment_deadline` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`cancel_reason` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`activity_id`) REFERENCES `activities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`session_id`) REFERENCES `activity_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tier_id`) REFERENCES `ticket_tiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_order_no_unique` ON `orders` (`order_no`);--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`status`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_idempotency_idx` ON `orders` (`user_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `orders_deadline_idx` ON `orders` (`status`,`payment_deadline`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text NOT NULL,
	`method` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_ref_unique` ON `payments` (`provider_ref`);--> statement-breakpoint
CREATE INDEX `payments_order_idx` ON `payments` (`order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_idempotency_idx` ON `payments` (`order_id`,`idempotency_key`);--> statement-breakpoint
CREATE TABLE `pop_up_boxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scene_type` text NOT NULL,
	`content` text NOT NULL,
	`currency` text NOT NULL,
	`valid_from` integer NOT NULL,
	`valid_to` integer NOT NULL,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ticket_tiers` (
	`id` integer PRIMARY KEY NOT NULL,
	`session_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`face_value` integer NOT NULL,
	`currency` text NOT NULL,
	`sort` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `activity_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`currency`) REFERENCES `currencies`(`code`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tiers_session_idx` ON `ticket_tiers` (`session_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`ticket_no` text NOT NULL,
	`code_hash` text,
	`status` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_ticket_no_unique` ON `tickets` (`ticket_no`);--> statement-breakpoint
CREATE INDEX `tickets_order_idx` ON `tickets` (`order_id`);--> statement-breakpoint
CREATE TABLE `user_coupons` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`coupon_id` integer NOT NULL,
	`status` text DEFAULT 'unused' NOT NULL,
	`order_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`coupon_id`) REFERENCES `coupons`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_coupons_user_idx` ON `user_coupons` (`user_id`,`status`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone_country_code` text,
	`phone` text,
	`email` text,
	`nickname` text NOT NULL,
	`password_hash` text,
	`password_salt` text,
	`password_iterations` integer,
	`is_seller` integer DEFAULT false NOT NULL,
	`invite_code` text NOT NULL,
	`invited_by` integer,
	`language_code` text,
	`currency_code` text,
	`city_id` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_invite_code_unique` ON `users` (`invite_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_phone_idx` ON `users` (`phone_country_code`,`phone`);--> statement-breakpoint
CREATE TABLE `venues` (
	`id` integer PRIMARY KEY NOT NULL,
	`city_id` integer NOT NULL,
	`name_en` text NOT NULL,
	`name_zh_hant` text NOT NULL,
	`name_zh_hans` text NOT NULL,
	`address_en` text NOT NULL,
	`address_zh` text NOT NULL,
	`longitude` real NOT NULL,
	`latitude` real NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `venues_city_idx` ON `venues` (`city_id`);--> statement-breakpoint
CREATE TABLE `verification_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`target` text NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `codes_target_idx` ON `verification_codes` (`target`,`purpose`);