-- A session turns high demand by itself when checkout's orders for it pass a rate (issue 20,
-- docs/hot-on-sale.md). Each plain order counts itself here, in its own D1 batch, per session and
-- minute of the clock. A table of its own: any write to activity_sessions bumps the catalogue version
-- (migration 0012), which would empty the edge cache of every page on every order. Keyed by the
-- minute first, so the sweep deletes past minutes by the key's prefix; no foreign key, so a count
-- costs no lookup of its session (rows live about two minutes).
CREATE TABLE `session_order_rates` (
	`minute` integer NOT NULL,
	`session_id` integer NOT NULL,
	`orders` integer NOT NULL,
	PRIMARY KEY(`minute`, `session_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- An operator's last switch of a session's high demand (services/high-demand.ts): their decision
-- stands, the order rate never switches such a session on again.
CREATE TABLE `operator_high_demand_switches` (
	`session_id` integer PRIMARY KEY NOT NULL REFERENCES `activity_sessions`(`id`),
	`high_demand` integer NOT NULL,
	`switched_at` integer NOT NULL
);
