ALTER TABLE `lotteries` ADD `tickets_per_prize` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `lotteries` ADD `drawn_at` integer;--> statement-breakpoint
ALTER TABLE `lottery_codes` ADD `lottery_id` integer REFERENCES lotteries(id);--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_codes_lottery_code_idx` ON `lottery_codes` (`lottery_id`,`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `lottery_codes_lottery_helper_idx` ON `lottery_codes` (`lottery_id`,`helper_user_id`);