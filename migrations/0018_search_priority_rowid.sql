-- The search index's rowid becomes a priority key (issue 22, docs/search.md), so that FTS5's own
-- order over a doclist is "buyable soonest first" and `MATCH ? ORDER BY rowid LIMIT n` stops after
-- n matches instead of ranking every one:
--
--   rowid = tier << 58 | start_minute << 32 | activity id
--
-- tier 0: on sale or priority booking (status 1, 4); 1: not yet on sale (6); 2: not shown to buyers
-- (any other status, and ended activities, which the scheduled sweep moves here). start_minute is
-- starts_at in whole minutes since 1970, clamped to 26 bits (until 2097). The activity id keeps its
-- low 32 bits, so `rowid & 4294967295` joins the index to activities.
--
-- The documents and their text are exactly those of migration 0002 (every activity, same columns),
-- so bm25's statistics, and with them the ranking of a specific query, do not change.
--
-- The table is created anew for a longer prefix index: FTS5 answers a prefix term that no prefix
-- index covers by merging the doclists of every matching term in full before returning the first
-- row, so "tour"* (4 letters) used to cost as much as its 50,000 matches. Prefixes of 2 to 10
-- characters now come from the index in rowid order and stop with the LIMIT; a longer typed word
-- is rare and, being that long, matches few terms.
-- A document sits at its live key or, once swept as ended, at its hidden key; triggers delete both.

DROP TRIGGER `activity_search_after_insert`;
--> statement-breakpoint
DROP TRIGGER `activity_search_after_update`;
--> statement-breakpoint
DROP TRIGGER `activity_search_after_delete`;
--> statement-breakpoint
DROP TRIGGER `activity_search_after_artist_update`;
--> statement-breakpoint
DROP TRIGGER `activity_search_after_venue_update`;
--> statement-breakpoint
CREATE VIEW `activity_search_key` AS
SELECT
	a.id AS id,
	((CASE WHEN a.status IN (1, 4) THEN 0 WHEN a.status = 6 THEN 1 ELSE 2 END) << 58)
		| (min(max(a.starts_at / 60000, 0), 67108863) << 32) | a.id AS live_key,
	(2 << 58) | (min(max(a.starts_at / 60000, 0), 67108863) << 32) | a.id AS hidden_key
FROM `activities` a;
--> statement-breakpoint
DROP TABLE `activity_search`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `activity_search` USING fts5(
	`name`, `artist`, `venue`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3 4 5 6 7 8 9 10'
);
--> statement-breakpoint
INSERT INTO `activity_search` (`activity_search`, `rank`) VALUES ('rank', 'bm25(4.0, 6.0, 2.0)');
--> statement-breakpoint
INSERT INTO `activity_search` (rowid, name, artist, venue)
	SELECT k.live_key, t.name, t.artist, t.venue FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id;
--> statement-breakpoint
INSERT INTO `activity_search` (`activity_search`) VALUES ('optimize');
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT k.live_key, t.name, t.artist, t.venue FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
END;
--> statement-breakpoint
-- status and starts_at move the document to its new key, and a changed end brings a swept one back
-- to its live key; the text is built afresh from the row.
CREATE TRIGGER `activity_search_after_update`
AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id`, `status`, `starts_at`, `ends_at` ON `activities` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT k.live_key, t.name, t.artist, t.venue FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_artist_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans`, `pinyin` ON `artists` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.artist_id = NEW.id
		UNION ALL
		SELECT k.hidden_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.artist_id = NEW.id
	);
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT k.live_key, t.name, t.artist, t.venue FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id
		WHERE t.id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_venue_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans` ON `venues` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.venue_id = NEW.id
		UNION ALL
		SELECT k.hidden_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.venue_id = NEW.id
	);
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT k.live_key, t.name, t.artist, t.venue FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id
		WHERE t.id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
END;
