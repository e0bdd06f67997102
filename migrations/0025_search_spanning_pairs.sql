-- Which candidates of a two-character CJK phrase need their text (issue 22, docs/search.md, "Issue
-- 22, sixth pass"). The bigram table (migrations 0020, 0021) makes a pair of two CJK characters
-- with nothing between them but characters it skips: a separator (space, 《》, –, （）, ·), which the
-- main index skips too, or a token of the main index that is neither a pair character nor an ASCII
-- letter or digit (é, a full-width letter, 々, ー), across which the main index has no phrase. Such
-- a pair "spans" a token. A candidate of a two-character phrase whose pair spans nothing in its
-- activity's text is a match without reading that text; this table lists the others: (pair,
-- activity) for each pair an activity's bigram text holds only across a token (a pair also found
-- side by side elsewhere in the activity's three columns is a match already and is left out).
--
-- It may list more than it must, never less: a character counts as a separator only when it lies in
-- `activity_search_pair_separators` (ranges that tests/api/search-bigrams.test.ts checks, character
-- by character, against the main index's tokenizer); every other one is taken for a token. Keyed by
-- activity id, it does not move with the activity's key (status, dates, the sweep).
--
-- Enumerating an activity's characters is what made migration 0020 slow (26 minutes at 1,000,000),
-- so only text holding a possible token is enumerated: a name whose characters all lie in one GLOB
-- class (printable ASCII, the main pair ranges, the brackets 〈 to 】, – and ·: pair characters or
-- separators) has none, and a catalogue with no other names costs one scan of its activities. D1
-- caps a GLOB pattern at 50 bytes, hence the short class; any other character (a separator such as
-- ・ or （ included) sends the row to the exact enumeration.

CREATE TABLE `activity_search_pair_separators` (
	`low` INTEGER PRIMARY KEY NOT NULL,
	`high` INTEGER NOT NULL
);
--> statement-breakpoint
INSERT INTO `activity_search_pair_separators` (low, high) VALUES
	(1, 47),
	(58, 64),
	(91, 96),
	(123, 127),
	(128, 169),
	(171, 177),
	(180, 180),
	(182, 184),
	(187, 187),
	(191, 191),
	(215, 215),
	(247, 247),
	(8192, 8292),
	(8298, 8303),
	(12288, 12292),
	(12296, 12320),
	(12336, 12336),
	(12349, 12351),
	(12448, 12448),
	(12539, 12539),
	(65040, 65049),
	(65072, 65103),
	(65281, 65295),
	(65306, 65312),
	(65339, 65344),
	(65371, 65381);
--> statement-breakpoint
CREATE TABLE `activity_search_spanning_pairs` (
	`pair` TEXT NOT NULL,
	`activity_id` INTEGER NOT NULL,
	PRIMARY KEY (`pair`, `activity_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `activity_search_spanning_pairs_activity_idx` ON `activity_search_spanning_pairs` (`activity_id`);
--> statement-breakpoint
-- Per column the characters become: a pair character itself, '|' for an ASCII letter or digit (which
-- breaks a pair), '' for a separator, '^' for any other character (a possible token). A spanning
-- pair is a pair character followed by one or more '^' and then a pair character.
CREATE VIEW `activity_search_spanning_pair_text` AS
SELECT DISTINCT m.id AS id, substr(c.value, p.key + 1, 1) || substr(ltrim(substr(c.value, p.key + 2), '^'), 1, 1) AS pair
FROM (
	SELECT r.id AS id, (SELECT coalesce(group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|'
			WHEN EXISTS (SELECT 1 FROM `activity_search_pair_separators` s WHERE u BETWEEN s.low AND s.high) THEN '' ELSE '^' END, '' ORDER BY key), '') FROM (
			SELECT p.key AS key, substr(r.name, p.key + 1, 1) AS ch, unicode(substr(r.name, p.key + 1, 1)) AS u
			FROM json_each('[' || substr(replace(hex(zeroblob(length(r.name))), '00', '0,'), 1, 2 * length(r.name) - 1) || ']') AS p)) AS m0,
		(SELECT coalesce(group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|'
			WHEN EXISTS (SELECT 1 FROM `activity_search_pair_separators` s WHERE u BETWEEN s.low AND s.high) THEN '' ELSE '^' END, '' ORDER BY key), '') FROM (
			SELECT p.key AS key, substr(r.artist, p.key + 1, 1) AS ch, unicode(substr(r.artist, p.key + 1, 1)) AS u
			FROM json_each('[' || substr(replace(hex(zeroblob(length(r.artist))), '00', '0,'), 1, 2 * length(r.artist) - 1) || ']') AS p)) AS m1,
		(SELECT coalesce(group_concat(CASE WHEN u BETWEEN 12353 AND 12438 OR u BETWEEN 12449 AND 12538 OR u BETWEEN 13312 AND 19893 OR u BETWEEN 19968 AND 40908 OR u BETWEEN 44032 AND 55203 OR u BETWEEN 131072 AND 173782 OR u BETWEEN 173824 AND 177972 OR u BETWEEN 177984 AND 178205 THEN ch WHEN ch GLOB '[A-Za-z0-9]' THEN '|'
			WHEN EXISTS (SELECT 1 FROM `activity_search_pair_separators` s WHERE u BETWEEN s.low AND s.high) THEN '' ELSE '^' END, '' ORDER BY key), '') FROM (
			SELECT p.key AS key, substr(r.venue, p.key + 1, 1) AS ch, unicode(substr(r.venue, p.key + 1, 1)) AS u
			FROM json_each('[' || substr(replace(hex(zeroblob(length(r.venue))), '00', '0,'), 1, 2 * length(r.venue) - 1) || ']') AS p)) AS m2
	FROM (
		SELECT
			a.id AS id,
			a.name_en || ' ' || a.name_zh_hant || ' ' || a.name_zh_hans AS name,
			coalesce(ar.name_en || ' ' || ar.name_zh_hant || ' ' || ar.name_zh_hans || ' ' || ar.pinyin || ' ' || replace(ar.pinyin, ' ', ''), '') AS artist,
			v.name_en || ' ' || v.name_zh_hant || ' ' || v.name_zh_hans AS venue
		FROM `activities` a
		JOIN `venues` v ON v.id = a.venue_id
		LEFT JOIN `artists` ar ON ar.id = a.artist_id
	) AS r
	WHERE r.name GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*' OR r.artist GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*' OR r.venue GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*'
) AS m,
json_each(json_array(m.m0, m.m1, m.m2)) AS c,
json_each('[' || substr(replace(hex(zeroblob(length(c.value))), '00', '0,'), 1, 2 * length(c.value) - 1) || ']') AS p
WHERE substr(c.value, p.key + 2, 1) = '^' AND substr(c.value, p.key + 1, 1) NOT IN ('^', '|')
	AND substr(ltrim(substr(c.value, p.key + 2), '^'), 1, 1) NOT IN ('|', '')
	AND instr(m.m0 || '|' || m.m1 || '|' || m.m2, substr(c.value, p.key + 1, 1) || substr(ltrim(substr(c.value, p.key + 2), '^'), 1, 1)) = 0;
--> statement-breakpoint
-- The view tests each activity's three columns, its artist's and venue's names included; the
-- catalogue's artists and venues are tested once each here instead, so that only activities with a
-- possible token anywhere reach the view.
INSERT INTO `activity_search_spanning_pairs` (pair, activity_id)
	SELECT pair, id FROM `activity_search_spanning_pair_text` WHERE id IN (
		SELECT a.id FROM `activities` a
		WHERE a.name_en || a.name_zh_hant || a.name_zh_hans GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*'
			OR a.artist_id IN (SELECT id FROM `artists` WHERE name_en || name_zh_hant || name_zh_hans || pinyin GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*')
			OR a.venue_id IN (SELECT id FROM `venues` WHERE name_en || name_zh_hant || name_zh_hans GLOB '*[^ -~一-鿌ぁ-ゖァ-ヺ가-힣〈-】–·]*')
	);
--> statement-breakpoint
-- The bigram table's triggers (migration 0021) keep this table too, in the same statement.
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
CREATE TRIGGER `activity_search_bigrams_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
	INSERT INTO `activity_search_spanning_pairs` (pair, activity_id)
		SELECT pair, id FROM `activity_search_spanning_pair_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_update`
AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id`, `status`, `starts_at`, `ends_at` ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
	INSERT INTO `activity_search_bigrams` (rowid, bigrams)
		SELECT k.live_key, t.bigrams FROM `activity_search_bigram_text` t JOIN `activity_search_key` k ON k.id = t.id WHERE t.id = NEW.id;
	DELETE FROM `activity_search_spanning_pairs` WHERE activity_id = OLD.id;
	INSERT INTO `activity_search_spanning_pairs` (pair, activity_id)
		SELECT pair, id FROM `activity_search_spanning_pair_text` WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_search_bigrams_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_search_bigrams` WHERE rowid IN (
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id,
		(2 << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id
	);
	DELETE FROM `activity_search_spanning_pairs` WHERE activity_id = OLD.id;
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
	DELETE FROM `activity_search_spanning_pairs` WHERE activity_id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
	INSERT INTO `activity_search_spanning_pairs` (pair, activity_id)
		SELECT pair, id FROM `activity_search_spanning_pair_text` WHERE id IN (SELECT id FROM `activities` WHERE artist_id = NEW.id);
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
	DELETE FROM `activity_search_spanning_pairs` WHERE activity_id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
	INSERT INTO `activity_search_spanning_pairs` (pair, activity_id)
		SELECT pair, id FROM `activity_search_spanning_pair_text` WHERE id IN (SELECT id FROM `activities` WHERE venue_id = NEW.id);
END;
