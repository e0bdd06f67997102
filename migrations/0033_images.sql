-- Posters and banners uploaded from the console: one row per image, whose master JPEG and variants
-- are objects of the MEDIA bucket under `key` (services/media/images.ts).
CREATE TABLE `images` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL CHECK (`kind` IN ('activity', 'banner')),
	`key` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`uploaded_by` integer REFERENCES `users`(`id`),
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `images_key_unique` ON `images` (`key`);
--> statement-breakpoint
CREATE INDEX `images_kind_created_idx` ON `images` (`kind`, `created_at`);
