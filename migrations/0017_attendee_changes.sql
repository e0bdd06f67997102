-- Issue 19: a buyer of a real-name order asks to change one attendee; the seller who issued the
-- tickets (or an operator) approves or refuses. Each request is kept as the audit of who asked to
-- change whom, who decided, when and how. ID numbers are kept masked with a keyed hash (to tell two
-- requests for the same person apart); the new attendee's full number only while it waits, as
-- approving copies it to the order's attendee. Approving also gives the ticket a new entry nonce
-- (migration 0016), so the old voucher's codes stop admitting.
CREATE TABLE `attendee_change_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`order_attendee_id` integer NOT NULL,
	`ticket_id` integer,
	`requested_by` integer NOT NULL,
	`old_name` text NOT NULL,
	`old_nationality` text NOT NULL,
	`old_id_card_type` text NOT NULL,
	`old_id_masked` text NOT NULL,
	`old_id_hash` text NOT NULL,
	`new_name` text NOT NULL,
	`new_nationality` text NOT NULL,
	`new_id_card_type` text NOT NULL,
	`new_id_card_no` text,
	`new_id_masked` text NOT NULL,
	`new_id_hash` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` integer,
	`decided_at` integer,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_attendee_id`) REFERENCES `order_attendees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requested_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
CREATE INDEX `attendee_change_requests_order_idx` ON `attendee_change_requests` (`order_id`,`id`);--> statement-breakpoint
CREATE INDEX `attendee_change_requests_status_idx` ON `attendee_change_requests` (`status`,`created_at`);--> statement-breakpoint
-- One waiting request per attendee (and so per ticket) at a time.
CREATE UNIQUE INDEX `attendee_change_requests_pending_idx` ON `attendee_change_requests` (`order_attendee_id`) WHERE `status` = 'pending';--> statement-breakpoint
CREATE TRIGGER `messages_attendee_change_decided` AFTER UPDATE OF `status` ON `attendee_change_requests`
WHEN OLD.`status` = 'pending' AND NEW.`status` IN ('approved', 'refused')
BEGIN
	INSERT INTO `messages` (`id`, `dedupe_key`, `kind`, `user_id`, `channel`, `target`, `order_id`, `payload`, `created_at`)
	SELECT lower(hex(randomblob(16))), 'attendee_change:' || NEW.`id`, 'attendee_change_' || NEW.`status`, r.`user_id`, r.`channel`, r.`target`, NEW.`order_id`,
		json_object('attendee', NEW.`new_name`), COALESCE(NEW.`decided_at`, unixepoch() * 1000)
	FROM `message_recipients` r WHERE r.`user_id` = NEW.`requested_by`
	ON CONFLICT (`dedupe_key`) DO NOTHING;
END;
