-- The suggestion prefix table (issue 22, docs/search.md "Suggestions"): what the search box's
-- suggestions read per keystroke instead of the main index's doclists.
--
-- One row per (term, key): `term` is the main index's MATCH term for one typed word or character,
-- as ftsQuery writes it (`"kel"*` for a word of two or more letters, `"k"` for a one-letter word,
-- `"劉"` for a CJK character, each CJK character being a token of its own), `key` the index's rowid
-- (migration 0018's priority key: tier << 58 | start_minute << 32 | activity id) of an activity whose
-- document matches that term. Per term only the 32 smallest live keys (tiers 0 and 1: buyable
-- soonest first, then not yet on sale) are kept; 32 is SUGGESTION_PREFIX_DEPTH in src/lib/config.ts
-- (4 x SUGGESTION_LIMIT). Every term of every live document is here: a term with no row has no live
-- match, and one with fewer than 32 rows holds all its live matches (it is complete).
--
-- Invariant: a term's rows are the min(32, n) smallest live keys of its n live matches. Kept in the
-- catalogue write's own statement by the triggers below:
-- - adding a document (activity_suggestion_documents, INSTEAD OF INSERT): its terms come from an
--   FTS5 table with the main index's tokenizer (one document at a time, so its vocabulary is that
--   document's tokens, folded as the index folds them); a term with 32 rows gives up its 32nd for a
--   smaller key, and the key goes in wherever the term has fewer than 32 rows;
-- - removing a key (activity_suggestion_keys, INSTEAD OF DELETE): each full term that held it first
--   takes its next live match from the main index (the smallest live rowid past the term's largest
--   row, the activity itself and the activities in activity_suggestion_moving excluded, so whether
--   the main index's own trigger has run yet does not matter), then the key goes. A term left with
--   fewer than 32 rows had no more matches: it is complete again;
-- - an activity's insert adds it, its delete removes its live key, a change of name, artist, venue,
--   status or dates removes its old live key and adds it anew; an artist or venue rename does the
--   same for its activities, excluded from the refill together while their text changes; the sweep
--   of ended shows (hideEndedFromSearch) removes their keys once the main index has hidden them.
-- Only documents in the 32 first of a term have rows, so in a large catalogue most writes find
-- nothing to remove and most terms nothing to change.

CREATE TABLE `activity_suggestions` (
	`term` text NOT NULL,
	`key` integer NOT NULL,
	PRIMARY KEY (`term`, `key`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `activity_suggestions_key` ON `activity_suggestions` (`key`);
--> statement-breakpoint
-- Filled from the main index: every term of its vocabulary gives its prefixes of two or more
-- characters (a one-character term gives itself), and each prefix its first 32 live matches in
-- rowid order, FTS5 stopping at the bound (the 32nd live match's rowid).
CREATE VIRTUAL TABLE `activity_search_vocabulary` USING fts5vocab(`activity_search`, 'row');
--> statement-breakpoint
CREATE TABLE `activity_suggestion_fill` AS
SELECT DISTINCT CASE WHEN length(v.term) = 1 THEN '"' || v.term || '"' ELSE '"' || substr(v.term, 1, p.key + 2) || '"*' END AS term
FROM `activity_search_vocabulary` v,
	json_each('[' || substr(replace(hex(zeroblob(max(length(v.term) - 1, 1))), '00', '0,'), 1, 2 * max(length(v.term) - 1, 1) - 1) || ']') AS p;
--> statement-breakpoint
INSERT INTO `activity_suggestions` (term, key)
SELECT f.term, activity_search.rowid
FROM `activity_suggestion_fill` f JOIN `activity_search` ON activity_search MATCH f.term
WHERE activity_search.rowid <= coalesce(
	(SELECT rowid FROM `activity_search` WHERE activity_search MATCH f.term AND rowid < (2 << 58) ORDER BY rowid LIMIT 1 OFFSET 31),
	(2 << 58) - 1);
--> statement-breakpoint
DROP TABLE `activity_suggestion_fill`;
--> statement-breakpoint
DROP TABLE `activity_search_vocabulary`;
--> statement-breakpoint
-- The tokenizer of one document at a time: the main index's, on its three columns' text joined.
CREATE VIRTUAL TABLE `activity_suggestion_tokens` USING fts5(
	`text`,
	content = '',
	contentless_delete = 1,
	detail = 'none',
	tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE VIRTUAL TABLE `activity_suggestion_token_list` USING fts5vocab(`activity_suggestion_tokens`, 'instance');
--> statement-breakpoint
-- The terms of the documents in activity_suggestion_tokens, with their keys (the tokens' rowid).
CREATE VIEW `activity_suggestion_new_terms` AS
SELECT DISTINCT v.doc AS key,
	CASE WHEN length(v.term) = 1 THEN '"' || v.term || '"' ELSE '"' || substr(v.term, 1, p.key + 2) || '"*' END AS term
FROM `activity_suggestion_token_list` v,
	json_each('[' || substr(replace(hex(zeroblob(max(length(v.term) - 1, 1))), '00', '0,'), 1, 2 * max(length(v.term) - 1, 1) - 1) || ']') AS p;
--> statement-breakpoint
-- Activities whose text is changing in the current statement (an artist's or venue's), kept out of refills.
CREATE TABLE `activity_suggestion_moving` (`id` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
CREATE VIEW `activity_suggestion_documents` AS SELECT id FROM `activities`;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestion_documents_add` INSTEAD OF INSERT ON `activity_suggestion_documents` BEGIN
	INSERT INTO `activity_suggestion_tokens` (`activity_suggestion_tokens`) VALUES ('delete-all');
	INSERT INTO `activity_suggestion_tokens` (rowid, text)
		SELECT k.live_key, concat_ws(' ', t.name, t.artist, t.venue)
		FROM `activity_search_text` t JOIN `activity_search_key` k ON k.id = t.id
		WHERE t.id = NEW.id AND k.live_key < (2 << 58);
	-- A term already holding 32 keys gives up its last for a smaller one, then the key goes in where it is among the first 32.
	DELETE FROM `activity_suggestions` WHERE (term, key) IN (
		SELECT last.term, last.key FROM (
			SELECT n.term AS term, n.key AS new_key,
				(SELECT s.key FROM `activity_suggestions` s WHERE s.term = n.term ORDER BY s.key LIMIT 1 OFFSET 31) AS key
			FROM `activity_suggestion_new_terms` n) AS last
		WHERE last.new_key < last.key);
	INSERT OR IGNORE INTO `activity_suggestions` (term, key)
		SELECT n.term, n.key FROM `activity_suggestion_new_terms` n
		WHERE n.key < coalesce((SELECT s.key FROM `activity_suggestions` s WHERE s.term = n.term ORDER BY s.key LIMIT 1 OFFSET 31), 1 << 62);
END;
--> statement-breakpoint
CREATE VIEW `activity_suggestion_keys` AS SELECT DISTINCT key FROM `activity_suggestions`;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestion_keys_remove` INSTEAD OF DELETE ON `activity_suggestion_keys` BEGIN
	INSERT OR IGNORE INTO `activity_suggestions` (term, key)
		SELECT refill.term, refill.next FROM (
			SELECT s.term AS term, (
				SELECT rowid FROM `activity_search`
				WHERE activity_search MATCH s.term
					AND rowid > (SELECT max(x.key) FROM `activity_suggestions` x WHERE x.term = s.term) AND rowid < (2 << 58)
					AND (rowid & 4294967295) <> (OLD.key & 4294967295)
					AND (rowid & 4294967295) NOT IN (SELECT id FROM `activity_suggestion_moving`)
				ORDER BY rowid LIMIT 1) AS next
			FROM `activity_suggestions` s
			WHERE s.key = OLD.key AND (SELECT count(*) FROM `activity_suggestions` x WHERE x.term = s.term) >= 32
		) AS refill
		WHERE refill.next IS NOT NULL;
	DELETE FROM `activity_suggestions` WHERE key = OLD.key;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestions_after_insert` AFTER INSERT ON `activities` BEGIN
	INSERT INTO `activity_suggestion_documents` (id) VALUES (NEW.id);
END;
--> statement-breakpoint
-- The columns of the main index's trigger (migration 0018): the old live key goes, the row comes back at its new one.
CREATE TRIGGER `activity_suggestions_after_update`
AFTER UPDATE OF `id`, `name_en`, `name_zh_hant`, `name_zh_hans`, `artist_id`, `venue_id`, `status`, `starts_at`, `ends_at` ON `activities` BEGIN
	DELETE FROM `activity_suggestion_keys` WHERE key =
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id;
	INSERT INTO `activity_suggestion_documents` (id) VALUES (NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestions_after_delete` AFTER DELETE ON `activities` BEGIN
	DELETE FROM `activity_suggestion_keys` WHERE key =
		((CASE WHEN OLD.status IN (1, 4) THEN 0 WHEN OLD.status = 6 THEN 1 ELSE 2 END) << 58) | (min(max(OLD.starts_at / 60000, 0), 67108863) << 32) | OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestions_after_artist_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans`, `pinyin` ON `artists` BEGIN
	INSERT OR IGNORE INTO `activity_suggestion_moving` (id) SELECT id FROM `activities` WHERE artist_id = NEW.id;
	DELETE FROM `activity_suggestion_keys` WHERE key IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.artist_id = NEW.id);
	DELETE FROM `activity_suggestion_moving`;
	INSERT INTO `activity_suggestion_documents` (id) SELECT id FROM `activities` WHERE artist_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `activity_suggestions_after_venue_update` AFTER UPDATE OF `name_en`, `name_zh_hant`, `name_zh_hans` ON `venues` BEGIN
	INSERT OR IGNORE INTO `activity_suggestion_moving` (id) SELECT id FROM `activities` WHERE venue_id = NEW.id;
	DELETE FROM `activity_suggestion_keys` WHERE key IN (
		SELECT k.live_key FROM `activity_search_key` k JOIN `activities` a ON a.id = k.id WHERE a.venue_id = NEW.id);
	DELETE FROM `activity_suggestion_moving`;
	INSERT INTO `activity_suggestion_documents` (id) SELECT id FROM `activities` WHERE venue_id = NEW.id;
END;
