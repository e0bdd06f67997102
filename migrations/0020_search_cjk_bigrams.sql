-- CJK bigrams beside the search index (issue 22, docs/search.md). The main index (migrations 0002,
-- 0018) holds every CJK character as its own token, so the phrase "高 靜 文" intersects the
-- doclists of 高, 靜 and 文, each a sizeable share of the catalogue, and bm25 walks that phrase
-- once more for its IDF. This table holds, per activity (rowid = activity id), each pair of
-- consecutive CJK characters of its name, artist and venue as one token ("高靜 靜文"), so a phrase
-- of two or more characters finds its candidates from the short doclists of its pairs.
--
-- It is a candidate filter, never the answer: the search service checks each candidate against the
-- main index's own text and ranks with the main index's statistics. It must therefore never miss a
-- pair the main index would match, and may hold extra ones:
-- - a pair is made only of "bigram characters" (the ranges below: kana, Hangul syllables and the
--   CJK ideographs of Unicode 6.1, every one a token of unicode61); a query whose CJK run holds any
--   other character does not use this table;
-- - an ASCII letter or digit (a token of its own) between two characters breaks the pair; every
--   other character in between is skipped: a separator (space, 《》, –) joins the two characters
--   in the main index too, and a token skipped here (é, a full-width letter) only adds a pair;
-- - pairs never cross columns, as phrases do not.
-- Characters are enumerated with json_each as in migration 0002 (no WITH inside a trigger).
--
-- detail=none and no content keep it small (a doclist of rowids per pair); contentless_delete lets
-- the triggers replace and remove an activity's row by its rowid.

CREATE VIRTUAL TABLE `activity_search_bigrams` USING fts5(
	`bigrams`,
	content = '',
	contentless_delete = 1,
	detail = 'none',
	tokenize = 'ascii'
);
--> statement-breakpoint
CREATE VIEW `activity_search_bigram_text` AS
SELECT
	r.id AS id,
	concat_ws(',',
		(SELECT group_concat(DISTINCT substr(g.s, p.key + 1, 2)) FROM (SELECT replace(replace(replace(replace(s0, '||||', '|'), '||||', '|'), '||', '|'), '||', '|') AS s FROM (
			SELECT group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|' ELSE '' END, '' ORDER BY key) AS s0 FROM (
				SELECT p.key AS key, substr(r.name, p.key + 1, 1) AS ch, unicode(substr(r.name, p.key + 1, 1)) AS u
				FROM json_each('[' || substr(replace(hex(zeroblob(length(r.name))), '00', '0,'), 1, 2 * length(r.name) - 1) || ']') AS p
			)
		)) AS g, json_each('[' || substr(replace(hex(zeroblob(length(g.s) - 1)), '00', '0,'), 1, 2 * length(g.s) - 3) || ']') AS p
		WHERE instr(substr(g.s, p.key + 1, 2), '|') = 0),
		(SELECT group_concat(DISTINCT substr(g.s, p.key + 1, 2)) FROM (SELECT replace(replace(replace(replace(s0, '||||', '|'), '||||', '|'), '||', '|'), '||', '|') AS s FROM (
			SELECT group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|' ELSE '' END, '' ORDER BY key) AS s0 FROM (
				SELECT p.key AS key, substr(r.artist, p.key + 1, 1) AS ch, unicode(substr(r.artist, p.key + 1, 1)) AS u
				FROM json_each('[' || substr(replace(hex(zeroblob(length(r.artist))), '00', '0,'), 1, 2 * length(r.artist) - 1) || ']') AS p
			)
		)) AS g, json_each('[' || substr(replace(hex(zeroblob(length(g.s) - 1)), '00', '0,'), 1, 2 * length(g.s) - 3) || ']') AS p
		WHERE instr(substr(g.s, p.key + 1, 2), '|') = 0),
		(SELECT group_concat(DISTINCT substr(g.s, p.key + 1, 2)) FROM (SELECT replace(replace(replace(replace(s0, '||||', '|'), '||||', '|'), '||', '|'), '||', '|') AS s FROM (
			SELECT group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|' ELSE '' END, '' ORDER BY key) AS s0 FROM (
				SELECT p.key AS key, substr(r.venue, p.key + 1, 1) AS ch, unicode(substr(r.venue, p.key + 1, 1)) AS u
				FROM json_each('[' || substr(replace(hex(zeroblob(length(r.venue))), '00', '0,'), 1, 2 * length(r.venue) - 1) || ']') AS p
			)
		)) AS g, json_each('[' || substr(replace(hex(zeroblob(length(g.s) - 1)), '00', '0,'), 1, 2 * length(g.s) - 3) || ']') AS p
		WHERE instr(substr(g.s, p.key + 1, 2), '|') = 0)
	) AS bigrams
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
INSERT INTO `activity_search_bigrams` (rowid, bigrams) SELECT id, bigrams FROM `activity_search_bigram_text`;
--> statement-breakpoint
INSERT INTO `activity_search_bigrams` (`activity_search_bigrams`) VALUES ('optimize');
--> statement-breakpoint
-- Kept in step with the same writes as the main index, in the same statement. A change of status,
-- start or end moves a document of the main index but leaves its text, and so its bigrams, alone.
CREATE TRIGGER `activity_search_bigrams_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_search_bigrams` (rowid, bigrams) SELECT id, bigrams FROM `activity_search_bigram_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_update`
AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id` ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid = OLD.id;
	INSERT INTO `activity_search_bigrams` (rowid, bigrams) SELECT id, bigrams FROM `activity_search_bigram_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_artist_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans`, `pinyin` ON `artists` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT id, bigrams FROM `activity_search_bigram_text` WHERE id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_venue_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans` ON `venues` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT id, bigrams FROM `activity_search_bigram_text` WHERE id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
END;
