CREATE TABLE `captcha_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`answer_hash` text NOT NULL,
	`client_key` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
