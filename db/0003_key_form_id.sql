ALTER TABLE `api_keys` ADD `form_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_account_form` ON `api_keys` (`account_id`,`form_id`);