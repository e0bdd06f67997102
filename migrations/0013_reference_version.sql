-- The reference tables (cities, categories, languages, currencies, FX rates, hot words) change rarely and
-- every page reads them, so a worker keeps them in memory (src/lib/services/reference-data.ts) under
-- their own version, row 2: a stock or price change (row 1 only) leaves that copy valid. A write to a
-- reference table bumps both rows, since shared pages show reference data too.
INSERT INTO `catalogue_version` (`id`, `version`) VALUES (2, 0);--> statement-breakpoint
DROP TRIGGER `categories_version_insert`;--> statement-breakpoint
CREATE TRIGGER `categories_version_insert` AFTER INSERT ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `categories_version_update`;--> statement-breakpoint
CREATE TRIGGER `categories_version_update` AFTER UPDATE ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `categories_version_delete`;--> statement-breakpoint
CREATE TRIGGER `categories_version_delete` AFTER DELETE ON `categories` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `cities_version_insert`;--> statement-breakpoint
CREATE TRIGGER `cities_version_insert` AFTER INSERT ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `cities_version_update`;--> statement-breakpoint
CREATE TRIGGER `cities_version_update` AFTER UPDATE ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `cities_version_delete`;--> statement-breakpoint
CREATE TRIGGER `cities_version_delete` AFTER DELETE ON `cities` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `currencies_version_insert`;--> statement-breakpoint
CREATE TRIGGER `currencies_version_insert` AFTER INSERT ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `currencies_version_update`;--> statement-breakpoint
CREATE TRIGGER `currencies_version_update` AFTER UPDATE ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `currencies_version_delete`;--> statement-breakpoint
CREATE TRIGGER `currencies_version_delete` AFTER DELETE ON `currencies` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `fx_rates_version_insert`;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_insert` AFTER INSERT ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `fx_rates_version_update`;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_update` AFTER UPDATE ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `fx_rates_version_delete`;--> statement-breakpoint
CREATE TRIGGER `fx_rates_version_delete` AFTER DELETE ON `fx_rates` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `hot_keywords_version_insert`;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_insert` AFTER INSERT ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `hot_keywords_version_update`;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_update` AFTER UPDATE ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
DROP TRIGGER `hot_keywords_version_delete`;--> statement-breakpoint
CREATE TRIGGER `hot_keywords_version_delete` AFTER DELETE ON `hot_keywords` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
CREATE TRIGGER `languages_version_insert` AFTER INSERT ON `languages` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
CREATE TRIGGER `languages_version_update` AFTER UPDATE ON `languages` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;--> statement-breakpoint
CREATE TRIGGER `languages_version_delete` AFTER DELETE ON `languages` BEGIN UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` IN (1, 2); END;
