-- Staff sign in with passkeys (WebAuthn): each staff member's credentials, the one-time challenges
-- a sign-in or a registration signs, and the invitations by which an operator brings in new staff.
CREATE TABLE `staff_passkeys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`credential_id` text NOT NULL,
	`user_id` integer NOT NULL REFERENCES `users`(`id`),
	`public_key` text NOT NULL,
	`sign_count` integer NOT NULL DEFAULT 0,
	`transports` text NOT NULL DEFAULT '[]',
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_passkeys_credential_idx` ON `staff_passkeys` (`credential_id`);
--> statement-breakpoint
CREATE INDEX `staff_passkeys_user_idx` ON `staff_passkeys` (`user_id`);
--> statement-breakpoint
CREATE TABLE `webauthn_challenges` (
	`challenge_hash` text PRIMARY KEY NOT NULL,
	`purpose` text NOT NULL CHECK (`purpose` IN ('sign_in', 'registration')),
	`user_id` integer REFERENCES `users`(`id`),
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webauthn_challenges_expiry_idx` ON `webauthn_challenges` (`expires_at`);
--> statement-breakpoint
CREATE TABLE `staff_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`role` text NOT NULL CHECK (`role` IN ('operator', 'editor', 'customer_service')),
	`phone_country_code` text NOT NULL,
	`phone` text NOT NULL,
	`invited_by` integer NOT NULL REFERENCES `users`(`id`),
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_by` integer REFERENCES `users`(`id`),
	`accepted_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_invitations_token_idx` ON `staff_invitations` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `staff_invitations_created_idx` ON `staff_invitations` (`created_at`);
