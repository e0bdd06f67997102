-- A refunded order gives its buyer back the coupon it spent, whichever event refunded it (the seller
-- failed to deliver, the event was cancelled, a transfer lost its ticket): the refund is of what was
-- paid, and the coupon paid the rest. The coupon keeps its own validity; an expired one shows as such.
CREATE TRIGGER `orders_refund_returns_coupon` AFTER UPDATE OF `status` ON `orders`
WHEN NEW.`status` = 'refunded' AND OLD.`status` <> 'refunded' AND NEW.`user_coupon_id` IS NOT NULL
BEGIN
	UPDATE `user_coupons` SET `status` = 'unused', `order_id` = NULL
	WHERE `id` = NEW.`user_coupon_id` AND `order_id` = NEW.`id` AND `status` = 'used';
END;
