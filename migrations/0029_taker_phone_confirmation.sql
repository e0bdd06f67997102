-- A pickup taker's number gets our messages only once the buyer confirmed it (a code sent to it,
-- typed back by the buyer; set at checkout when it is the buyer's own signed-in number). Until then
-- the pickup details go to the buyer, so a typed number is never a way to message a stranger.
ALTER TABLE `orders` ADD `taker_phone_confirmed_at` integer;
--> statement-breakpoint
DROP TRIGGER `messages_order_ticketed`;
--> statement-breakpoint
CREATE TRIGGER `messages_order_ticketed` AFTER UPDATE OF `status` ON `orders`
WHEN OLD.`status` = 'pending_ticketing' AND NEW.`status` = 'pending_receipt'
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'tickets_issued:' || NEW.`id`, 'tickets_issued', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, '{}', NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` = 'e_ticket'
	ON CONFLICT (`dedupe_key`) DO NOTHING;
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'courier_shipped:' || NEW.`id`, 'courier_shipped', r.`user_id`, r.`channel`, r.`target`, NEW.`id`, json_object('trackingNo', NEW.`tracking_no`), NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` = 'courier'
	ON CONFLICT (`dedupe_key`) DO NOTHING;
	-- Pickup details go by SMS to the person named to collect the tickets once the buyer confirmed that number, else to the buyer.
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'pickup_details:' || NEW.`id`, 'pickup_details', r.`user_id`,
		CASE WHEN NEW.`taker_phone_confirmed_at` IS NOT NULL THEN 'sms' ELSE r.`channel` END,
		CASE WHEN NEW.`taker_phone_confirmed_at` IS NOT NULL THEN NEW.`taker_phone` ELSE r.`target` END,
		NEW.`id`, json_object('pickupAddress', NEW.`pickup_address`, 'pickupTime', NEW.`pickup_time`), NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id` AND NEW.`delivery_type` IN ('on_site', 'self_pickup')
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;
--> statement-breakpoint
-- A number confirmed after the tickets were handed over still gets the pickup details (the buyer already has them).
CREATE TRIGGER `messages_taker_phone_confirmed` AFTER UPDATE OF `taker_phone_confirmed_at` ON `orders`
WHEN OLD.`taker_phone_confirmed_at` IS NULL AND NEW.`taker_phone_confirmed_at` IS NOT NULL AND NEW.`status` = 'pending_receipt'
	AND NEW.`delivery_type` IN ('on_site', 'self_pickup') AND NEW.`taker_phone` IS NOT NULL
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'pickup_details:taker:' || NEW.`id`, 'pickup_details', r.`user_id`, 'sms', NEW.`taker_phone`,
		NEW.`id`, json_object('pickupAddress', NEW.`pickup_address`, 'pickupTime', NEW.`pickup_time`), NEW.`updated_at`
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`user_id`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;
