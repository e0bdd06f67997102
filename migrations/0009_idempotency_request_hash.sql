ALTER TABLE `orders` ADD `request_hash` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `request_hash` text;