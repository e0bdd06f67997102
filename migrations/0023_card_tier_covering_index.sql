-- A card's price (services/catalogue.ts, cheapestListing) reads its activity's sessions, their
-- tiers and the tiers' listings. The tiers' index held only the session, so every tier was also
-- read from its table row for its face value: at 1,000,000 activities those rows lie anywhere, one
-- more random page per card (issue 22, docs/search.md). With the face value in the index the tiers
-- are read from it alone. `id` (the rowid) comes before it so that the index keeps the order it had
-- (session, then id) for any query that relies on it. Listings keep their index: adding the
-- quantity would cost every hold's guarded write an index update.
DROP INDEX `tiers_session_idx`;
--> statement-breakpoint
CREATE INDEX `tiers_session_idx` ON `ticket_tiers` (`session_id`, `id`, `face_value`);
