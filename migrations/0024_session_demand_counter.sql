-- A session becomes high demand by itself when its orders pass a rate (issue 20, docs/hot-on-sale.md):
-- each order checkout writes counts itself here, in the same D1 batch, per minute of the clock
-- (demand_minute: the minute counted, demand_orders: its orders so far). An operator's switch
-- (high_demand_switched_at) is final: the counter never turns on a session an operator switched.
ALTER TABLE activity_sessions ADD COLUMN demand_minute INTEGER NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE activity_sessions ADD COLUMN demand_orders INTEGER NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE activity_sessions ADD COLUMN high_demand_switched_at INTEGER;
