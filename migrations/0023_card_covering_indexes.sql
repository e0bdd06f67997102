-- A card's price (services/catalogue.ts, cheapestListing) reads its activity's sessions, their
-- tiers and the tiers' listings, each by index; the tier's face value and the listing's currency
-- and quantity came from their table rows, random pages at 1,000,000 activities (issue 22,
-- docs/search.md). With them in the indexes, sessions, tiers and listings are read from indexes
-- alone and a card reads no tier row. `id` (the rowid) comes before the added columns so that each
-- index keeps the order it had for any query that relies on it. The quantity in the listings' index
-- costs a hold's guarded write (orders/placement.ts) the update of one index entry.
DROP INDEX `tiers_session_idx`;
--> statement-breakpoint
CREATE INDEX `tiers_session_idx` ON `ticket_tiers` (`session_id`, `id`, `face_value`);
--> statement-breakpoint
DROP INDEX `listings_tier_idx`;
--> statement-breakpoint
CREATE INDEX `listings_tier_idx` ON `listings` (`tier_id`, `status`, `price`, `id`, `currency`, `quantity_available`);
