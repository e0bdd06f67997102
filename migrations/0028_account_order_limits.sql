-- What one account may order (security review, domain/order-limits.ts). A session may set its own
-- cap of tickets per account; null takes ACCOUNT_TICKET_CAP (config.ts).
ALTER TABLE `activity_sessions` ADD `account_ticket_cap` integer;
--> statement-breakpoint
-- The order each waiting-room pass bought: a pass buys one order. Keyed by the pass, so two orders
-- racing with one pass cannot both write their row; an order that lapsed unpaid hands its row on to
-- the pass's next order (services/orders/placement.ts).
CREATE TABLE `waiting_room_pass_orders` (
	`pass` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
