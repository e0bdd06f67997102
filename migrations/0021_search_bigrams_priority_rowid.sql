-- The CJK bigram table (migration 0020) takes the search index's rowid (migration 0018's priority
-- key: tier << 58 | start_minute << 32 | activity id) instead of the bare activity id (issue 22,
-- docs/search.md). Its doclists are then in the index's own order, buyable soonest first, so a
-- pair with thousands of activities (靜文 at 1,000,000) is read like a broad word of the main
-- index: in that order, stopping after the first page-sized set of candidates, instead of asking
-- the main index for the phrase, which reads the position lists of every activity holding both
-- characters. Each bigram document sits at the key its activity's document has in the main index,
-- live or (after the sweep of ended activities, services/search.ts) hidden; the triggers below
-- move it with the main index's document, in the same statement.
--
-- The table's tokens are taken from the table itself (an fts5vocab "instance" view lists every
-- pair of every document, deleted ones excluded) rather than enumerated again from the names,
-- which took 26 minutes at 1,000,000 activities in migration 0020. Documents are written in key
-- order so that FTS5 appends to its doclists instead of flushing a segment per out-of-order rowid.

DROP TRIGGER `activity_search_bigrams_after_insert`;
--> statement-breakpoint
DROP TRIGGER `activity_search_bigrams_after_update`;
--> statement-breakpoint
DROP TRIGGER `activity_search_bigrams_after_delete`;
--> statement-breakpoint
DROP TRIGGER `activity_search_bigrams_after_artist_update`;
--> statement-breakpoint
DROP TRIGGER `activity_search_bigrams_after_venue_update`;
--> statement-breakpoint
ALTER TABLE `activity_search_bigrams` RENAME TO `activity_search_bigrams_by_id`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `activity_search_bigrams_by_id_pairs` USING fts5vocab(`activity_search_bigrams_by_id`, 'instance');
--> statement-breakpoint
CREATE VIRTUAL TABLE `activity_search_bigrams` USING fts5(
	`bigrams`,
	content = '',
	contentless_delete = 1,
	detail = 'none',
	tokenize = 'ascii'
);
--> statement-breakpoint
INSERT INTO `activity_search_bigrams` (rowid, bigrams)
	SELECT doc.id, pairs.bigrams
	FROM (SELECT `doc` AS id, group_concat(`term`, ',') AS bigrams FROM `activity_search_bigrams_by_id_pairs` GROUP BY `doc`) AS pairs
	JOIN `activity_search_key` k ON k.id = pairs.id
	JOIN `activity_search_content` doc ON doc.id IN (k.live_key, k.hidden_key)
	ORDER BY doc.id;
--> statement-breakpoint
INSERT INTO `activity_search_bigrams` (`activity_search_bigrams`) VALUES ('optimize');
--> statement-breakpoint
DROP TABLE `activity_search_bigrams_by_id_pairs`;
--> statement-breakpoint
DROP TABLE `activity_search_bigrams_by_id`;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
END;
--> statement-breakpoint
-- The same columns as the main index's trigger: a change of status or dates moves the document to
-- its activity's new key (and a changed end brings a swept one back to its live key).
CREATE TRIGGER `activity_search_bigrams_after_update`
AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id`, `status`, `starts_at`, `ends_at` ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_artist_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans`, `pinyin` ON `artists` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.artist_id = NEW.id
		UNION ALL
		SELECT k.hidden_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.artist_id = NEW.id
	);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id
		WHERE t.id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_venue_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans` ON `venues` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.venue_id = NEW.id
		UNION ALL
		SELECT k.hidden_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.venue_id = NEW.id
	);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id
		WHERE t.id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
END;
