ALTER TABLE `api_keys` ADD `requests_window_start` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `requests_in_window` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `finals_window_start` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `finals_in_window` integer DEFAULT 0 NOT NULL;