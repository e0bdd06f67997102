-- A show put on sale from the console is sold by its box office: the seller account that offers each
-- tier's quota at face value, as one listing a tier, made when the activity is published.
ALTER TABLE `activities` ADD `box_office_seller_id` integer REFERENCES `users`(`id`);
