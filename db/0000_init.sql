CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_confirmed` integer DEFAULT false NOT NULL,
	`plan` text NOT NULL,
	`credits_remaining` integer NOT NULL,
	`period_end` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `documents` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`template` text NOT NULL,
	`template_version` text NOT NULL,
	`mode` text NOT NULL,
	`paper` text NOT NULL,
	`locale` text NOT NULL,
	`reference` text,
	`source` text NOT NULL,
	`credits_consumed` integer NOT NULL,
	`sha256` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `documents_account_created` ON `documents` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `documents_account_reference` ON `documents` (`account_id`,`reference`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`lease_id` text NOT NULL,
	`lease_started_at` integer NOT NULL,
	`document_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `rate_limit_windows` (
	`bucket` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`bucket`, `window_start`)
);
--> statement-breakpoint
CREATE INDEX `rate_limit_expires` ON `rate_limit_windows` (`expires_at`);