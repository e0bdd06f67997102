-- Full-text search over activity, artist and venue names in English, Traditional and Simplified
-- Chinese, plus the artist's pinyin (spaced and joined), ranked with weighted bm25.
--
-- FTS5's unicode61 tokenizer keeps a run of CJK characters together as one token, so a two-character
-- query could never match inside a longer name. The view below therefore puts a space around every
-- character at or above U+2E80 (CJK, kana, Hangul, full-width forms), making each one a token; the
-- search service spaces queries by the same rule (src/lib/domain/search-text.ts) and matches a CJK
-- run as a phrase of consecutive characters. SQLite cannot split a string with a loop inside a
-- trigger (no WITH there), so the characters are enumerated with json_each over a JSON array of
-- length(text) zeros built from zeroblob().
--
-- The triggers keep the index in step with every write to activities, artists and venues, so the
-- plain INSERTs of the seed (and of any loader) are indexed as they land.

CREATE VIRTUAL TABLE `activity_search` USING fts5(
	`name`, `artist`, `venue`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
-- The rank column weighs the columns name, artist, venue: an artist hit says most about what the buyer
-- wants, a venue hit least. `ORDER BY rank` lets FTS5 sort the matches itself, before the join.
INSERT INTO `activity_search` (`activity_search`, `rank`) VALUES ('rank', 'bm25(4.0, 6.0, 2.0)');
--> statement-breakpoint
CREATE VIEW `activity_search_text` AS
SELECT
	r.id AS id,
	(SELECT group_concat(CASE WHEN unicode(substr(r.name, p.key + 1, 1)) >= 11904 THEN ' ' || substr(r.name, p.key + 1, 1) || ' ' ELSE substr(r.name, p.key + 1, 1) END, '' ORDER BY p.key)
		FROM json_each('[' || substr(replace(hex(zeroblob(length(r.name))), '00', '0,'), 1, 2 * length(r.name) - 1) || ']') AS p) AS name,
	(SELECT group_concat(CASE WHEN unicode(substr(r.artist, p.key + 1, 1)) >= 11904 THEN ' ' || substr(r.artist, p.key + 1, 1) || ' ' ELSE substr(r.artist, p.key + 1, 1) END, '' ORDER BY p.key)
		FROM json_each('[' || substr(replace(hex(zeroblob(length(r.artist))), '00', '0,'), 1, 2 * length(r.artist) - 1) || ']') AS p) AS artist,
	(SELECT group_concat(CASE WHEN unicode(substr(r.venue, p.key + 1, 1)) >= 11904 THEN ' ' || substr(r.venue, p.key + 1, 1) || ' ' ELSE substr(r.venue, p.key + 1, 1) END, '' ORDER BY p.key)
		FROM json_each('[' || substr(replace(hex(zeroblob(length(r.venue))), '00', '0,'), 1, 2 * length(r.venue) - 1) || ']') AS p) AS venue
FROM (
	SELECT
		a.id AS id,
		a.name_en || ' ' || a.name_zh_hant || ' ' || a.name_zh_hans AS name,
		coalesce(ar.name_en || ' ' || ar.name_zh_hant || ' ' || ar.name_zh_hans || ' ' || ar.pinyin || ' ' || replace(ar.pinyin, ' ', ''), '') AS artist,
		v.name_en || ' ' || v.name_zh_hant || ' ' || v.name_zh_hans AS venue
	FROM `activities` a
	JOIN `venues` v ON v.id = a.venue_id
	LEFT JOIN `artists` ar ON ar.id = a.artist_id
) AS r;
--> statement-breakpoint
INSERT INTO `activity_search` (rowid, name, artist, venue) SELECT id, name, artist, venue FROM `activity_search_text`;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_search` (rowid, name, artist, venue) SELECT id, name, artist, venue FROM `activity_search_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_update` AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id` ON `activities` BEGIN
	DELETE FROM `activity_search` WHERE rowid = OLD.id;
	INSERT INTO `activity_search` (rowid, name, artist, venue) SELECT id, name, artist, venue FROM `activity_search_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_search` WHERE rowid = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_artist_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans`, `pinyin` ON `artists` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT id, name, artist, venue FROM `activity_search_text` WHERE id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_after_venue_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans` ON `venues` BEGIN
	DELETE FROM `activity_search` WHERE rowid IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
	INSERT INTO `activity_search` (rowid, name, artist, venue)
		SELECT id, name, artist, venue FROM `activity_search_text` WHERE id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
END;
