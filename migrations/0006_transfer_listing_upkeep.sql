-- A transfer listing offers only tickets its seller still holds. When a listed ticket stops being
-- valid before a buyer's order claimed it (voided because the seller's own order was refunded, or
-- used), it leaves the listing in the same statement: its link is deactivated and the listing
-- offers one ticket fewer, in total and in stock. Stock goes below zero when unpaid orders hold
-- more tickets than are left; each such order gives its hold back when it closes unpaid or is
-- refunded for want of tickets when paid (services/transfers.ts), which brings stock back to the
-- tickets left unsold. A listing left with no ticket at all is withdrawn.
CREATE TRIGGER `tickets_leave_transfer_listing` AFTER UPDATE OF `status` ON `tickets`
WHEN OLD.`status` = 'valid' AND NEW.`status` <> 'valid'
BEGIN
	UPDATE `listings` SET `quantity_total` = `quantity_total` - 1, `quantity_available` = `quantity_available` - 1
	WHERE `id` IN (SELECT `listing_id` FROM `listing_tickets` WHERE `ticket_id` = NEW.`id` AND `active` = 1 AND `buyer_order_id` IS NULL);
	UPDATE `listing_tickets` SET `active` = 0 WHERE `ticket_id` = NEW.`id` AND `active` = 1 AND `buyer_order_id` IS NULL;
	UPDATE `listings` SET `status` = 'withdrawn'
	WHERE `status` = 'active' AND `quantity_total` = 0 AND `id` IN (SELECT `listing_id` FROM `listing_tickets` WHERE `ticket_id` = NEW.`id`);
END;
--> statement-breakpoint
-- A refunded order holds no tickets, whichever event refunded it (the seller failed to deliver, the
-- event was cancelled): its tickets are voided in the statement that refunds it, so the trigger
-- above takes any of them out of a transfer listing at once.
CREATE TRIGGER `orders_refund_voids_tickets` AFTER UPDATE OF `status` ON `orders`
WHEN NEW.`status` = 'refunded' AND OLD.`status` <> 'refunded'
BEGIN
	UPDATE `tickets` SET `status` = 'invalid', `updated_at` = NEW.`updated_at` WHERE `order_id` = NEW.`id` AND `status` IN ('pending', 'valid');
END;
