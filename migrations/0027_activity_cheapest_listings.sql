-- Each activity's cheapest listing, kept so that a card reads one row (issue 17,
-- docs/rendered-pages.md). A card's price (services/catalogue.ts) is its activity's cheapest listing
-- on sale at the request's time, else its cheapest listing of all, by value in HKD then id; the
-- query for it reads and sorts every listing of the activity (about 24) through their tiers,
-- sessions, currencies and rates, for every card.
--
-- The pick depends on the time, so each row keeps the time it was picked at (`picked_at`, SQLite's
-- clock at the write, one value per statement) and the time it stops being the answer
-- (`on_sale_until`). Picked at time h among the listings on sale at h (active, in stock, session
-- starting after h), the cheapest P is still the cheapest of those on sale at any later time until
-- its own session starts: they are a subset of the ones at h and still hold P. So a row answers for
-- picked_at <= now < on_sale_until. With nothing on sale at h, nothing is on sale later either: the
-- cheapest listing of all answers for every now >= picked_at (on_sale_until is null). No row: the
-- activity has no listing but withdrawn ones, at any time. Outside that range a card runs the live
-- query (services/catalogue.ts), and the sweep picks again for rows whose session has started.
--
-- Triggers pick again in the writing statement's own transaction, so no service can forget to: a
-- listing's insert, delete, or change of price, currency, status, tier or of being in stock; a tier's
-- face value or session; a session's start or activity; a rate; a currency's digits. Foreign keys
-- (enforced by D1) keep a tier, session, activity or currency that any listing refers to from being
-- deleted, and a new one has no listing yet, so their inserts and deletes change no pick.
CREATE TABLE `activity_cheapest_listings` (
	`activity_id` integer PRIMARY KEY NOT NULL,
	`listing_id` integer NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`face_value` integer NOT NULL,
	`on_sale_until` integer,
	`picked_at` integer NOT NULL
);
--> statement-breakpoint
-- The sweep finds rows whose session has started by this.
CREATE INDEX `activity_cheapest_listings_until_idx` ON `activity_cheapest_listings` (`on_sale_until`);
--> statement-breakpoint
-- The pick of each activity now, in the order and with the joins of the card's live query.
CREATE VIEW `activity_cheapest_listing_picks` AS
SELECT
	a.id AS activity_id,
	l.id AS listing_id,
	l.price AS price,
	l.currency AS currency,
	t.face_value AS face_value,
	CASE WHEN l.status = 'active' AND l.quantity_available > 0 AND s.starts_at > unixepoch() * 1000 THEN s.starts_at END AS on_sale_until,
	unixepoch() * 1000 AS picked_at
FROM activities a
JOIN listings l ON l.id = (
	SELECT l.id
	FROM listings l
	JOIN ticket_tiers t ON t.id = l.tier_id
	JOIN activity_sessions s ON s.id = t.session_id
	JOIN currencies c ON c.code = l.currency
	JOIN fx_rates fx ON fx.quote = l.currency
	WHERE s.activity_id = a.id AND l.status != 'withdrawn'
	ORDER BY NOT (l.status = 'active' AND l.quantity_available > 0 AND s.starts_at > unixepoch() * 1000),
		l.price * 1000000.0 / (fx.per_hkd_micros * CASE c.minor_digits WHEN 0 THEN 1 WHEN 1 THEN 10 WHEN 2 THEN 100 ELSE 1000 END),
		l.id
	LIMIT 1
)
JOIN ticket_tiers t ON t.id = l.tier_id
JOIN activity_sessions s ON s.id = t.session_id;
--> statement-breakpoint
INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_listing_insert` AFTER INSERT ON `listings` BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id = (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = NEW.tier_id);
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id = (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = NEW.tier_id);
END;
--> statement-breakpoint
-- A sale that leaves tickets in the listing changes no pick and runs nothing here.
CREATE TRIGGER `activity_cheapest_after_listing_update` AFTER UPDATE ON `listings`
WHEN OLD.price IS NOT NEW.price OR OLD.currency IS NOT NEW.currency OR OLD.status IS NOT NEW.status OR OLD.tier_id IS NOT NEW.tier_id
	OR (OLD.quantity_available > 0) IS NOT (NEW.quantity_available > 0)
BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id IN (OLD.tier_id, NEW.tier_id));
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id IN (OLD.tier_id, NEW.tier_id));
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_listing_delete` AFTER DELETE ON `listings` BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id = (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = OLD.tier_id);
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id = (SELECT s.activity_id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE t.id = OLD.tier_id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_tier_update` AFTER UPDATE OF `face_value`, `session_id` ON `ticket_tiers`
WHEN OLD.face_value IS NOT NEW.face_value OR OLD.session_id IS NOT NEW.session_id
BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT activity_id FROM activity_sessions WHERE id IN (OLD.session_id, NEW.session_id));
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT activity_id FROM activity_sessions WHERE id IN (OLD.session_id, NEW.session_id));
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_session_update` AFTER UPDATE OF `starts_at`, `activity_id` ON `activity_sessions`
WHEN OLD.starts_at IS NOT NEW.starts_at OR OLD.activity_id IS NOT NEW.activity_id
BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (OLD.activity_id, NEW.activity_id);
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks` WHERE activity_id IN (OLD.activity_id, NEW.activity_id);
END;
--> statement-breakpoint
-- A rate or a currency's digits weigh every listing in that currency: the activities with one pick again.
CREATE TRIGGER `activity_cheapest_after_rate_insert` AFTER INSERT ON `fx_rates` BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency = NEW.quote);
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency = NEW.quote);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_rate_update` AFTER UPDATE OF `quote`, `per_hkd_micros` ON `fx_rates`
WHEN OLD.quote IS NOT NEW.quote OR OLD.per_hkd_micros IS NOT NEW.per_hkd_micros
BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency IN (OLD.quote, NEW.quote));
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency IN (OLD.quote, NEW.quote));
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_rate_delete` AFTER DELETE ON `fx_rates` BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency = OLD.quote);
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency = OLD.quote);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_cheapest_after_currency_update` AFTER UPDATE OF `code`, `minor_digits` ON `currencies`
WHEN OLD.code IS NOT NEW.code OR OLD.minor_digits IS NOT NEW.minor_digits
BEGIN
	DELETE FROM `activity_cheapest_listings` WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency IN (OLD.code, NEW.code));
	INSERT INTO `activity_cheapest_listings` SELECT * FROM `activity_cheapest_listing_picks`
		WHERE activity_id IN (SELECT s.activity_id FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id WHERE l.currency IN (OLD.code, NEW.code));
END;
