CREATE TABLE `catalogue_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
-- The shared browse pages are cached under this version (src/lib/domain/page-cache.ts). Every write that
-- changes what a card, a banner, a price or a sale state shows bumps it here, in the writing statement's
-- own transaction, so no code path can forget to. Stock moves only when a listing runs out or comes back:
-- a bump on every sale would empty the cache exactly when an on-sale needs it.
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `listings_version_insert` AFTER INSERT ON `listings` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `listings_version_update` AFTER UPDATE ON `listings` WHEN OLD.`price` IS NOT NEW.`price` OR OLD.`currency` IS NOT NEW.`currency` OR OLD.`status` IS NOT NEW.`status` OR OLD.`tier_id` IS NOT NEW.`tier_id` OR (OLD.`quantity_available` > 0) IS NOT (NEW.`quantity_available` > 0) BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `listings_version_delete` AFTER DELETE ON `listings` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activities_version_insert` AFTER INSERT ON `activities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activities_version_update` AFTER UPDATE ON `activities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activities_version_delete` AFTER DELETE ON `activities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activity_sessions_version_insert` AFTER INSERT ON `activity_sessions` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activity_sessions_version_update` AFTER UPDATE ON `activity_sessions` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `activity_sessions_version_delete` AFTER DELETE ON `activity_sessions` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `ticket_tiers_version_insert` AFTER INSERT ON `ticket_tiers` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `ticket_tiers_version_update` AFTER UPDATE ON `ticket_tiers` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `ticket_tiers_version_delete` AFTER DELETE ON `ticket_tiers` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `venues_version_insert` AFTER INSERT ON `venues` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `venues_version_update` AFTER UPDATE ON `venues` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `venues_version_delete` AFTER DELETE ON `venues` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `artists_version_insert` AFTER INSERT ON `artists` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `artists_version_update` AFTER UPDATE ON `artists` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `artists_version_delete` AFTER DELETE ON `artists` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `categories_version_insert` AFTER INSERT ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `categories_version_update` AFTER UPDATE ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `categories_version_delete` AFTER DELETE ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `cities_version_insert` AFTER INSERT ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `cities_version_update` AFTER UPDATE ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `cities_version_delete` AFTER DELETE ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `currencies_version_insert` AFTER INSERT ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `currencies_version_update` AFTER UPDATE ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `currencies_version_delete` AFTER DELETE ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_insert` AFTER INSERT ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_update` AFTER UPDATE ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_delete` AFTER DELETE ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `banners_version_insert` AFTER INSERT ON `banners` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `banners_version_update` AFTER UPDATE ON `banners` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `banners_version_delete` AFTER DELETE ON `banners` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_insert` AFTER INSERT ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_update` AFTER UPDATE ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_delete` AFTER DELETE ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `pop_up_boxes_version_insert` AFTER INSERT ON `pop_up_boxes` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `pop_up_boxes_version_update` AFTER UPDATE ON `pop_up_boxes` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `pop_up_boxes_version_delete` AFTER DELETE ON `pop_up_boxes` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
