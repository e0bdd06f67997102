-- Issue 18: the waitlist's offers hold their tickets in the listing's stock like an order does. An
-- offer takes its tickets, marks its entry offered and writes its message in the statement that
-- inserts it; giving it up (lapsed, withdrawn) gives them back, and claiming it marks the entry bought.
-- The service's offer pass (services/waitlist.ts) decides who is offered what.
CREATE TRIGGER `waitlist_offer_holds` AFTER INSERT ON `waitlist_offers`
BEGIN
	UPDATE `listings` SET `quantity_available` = `quantity_available` - NEW.`quantity` WHERE `id` = NEW.`listing_id`;
	UPDATE `waitlist_entries` SET `status` = 'offered', `updated_at` = NEW.`created_at` WHERE `id` = NEW.`entry_id`;
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'waitlist_offer:' || NEW.`id`, 'waitlist_offer', r.`user_id`, r.`channel`, r.`target`,
		json_object('offerId', NEW.`id`), NEW.`created_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;--> statement-breakpoint
CREATE TRIGGER `waitlist_offer_returns` AFTER UPDATE OF `status` ON `waitlist_offers`
WHEN OLD.`status` = 'open' AND NEW.`status` IN ('lapsed', 'withdrawn')
BEGIN
	UPDATE `listings` SET `quantity_available` = `quantity_available` + NEW.`quantity` WHERE `id` = NEW.`listing_id`;
	UPDATE `waitlist_entries` SET `status` = CASE NEW.`status` WHEN 'withdrawn' THEN 'left' ELSE 'lapsed' END,
		`updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER)
	WHERE `id` = NEW.`entry_id`;
END;--> statement-breakpoint
CREATE TRIGGER `waitlist_offer_claimed` AFTER UPDATE OF `status` ON `waitlist_offers`
WHEN OLD.`status` = 'open' AND NEW.`status` = 'claimed'
BEGIN
	UPDATE `waitlist_entries` SET `status` = 'bought', `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER) WHERE `id` = NEW.`entry_id`;
END;
