-- One ticket tier of a session on sale as high demand of its own (issue 20, docs/hot-on-sale.md "Per
-- tier"): its buyers queue in the tier's waiting room and its holds go through the tier's inventory
-- object, while the session's other tiers sell as before. Only an operator sets it. A write to
-- ticket_tiers bumps the catalogue version (migration 0012): wanted, as the activity page's Buy of
-- that tier then goes to its room; the flag is written only when it changes.
ALTER TABLE ticket_tiers ADD COLUMN high_demand INTEGER NOT NULL DEFAULT 0;
