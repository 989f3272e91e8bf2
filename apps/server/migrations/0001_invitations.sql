ALTER TABLE "company_members" ADD COLUMN "invited_role_ids" jsonb;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_company_name" UNIQUE("company_id","name");