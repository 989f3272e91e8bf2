ALTER TABLE "company_members" ADD COLUMN "invited_name" varchar(50);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unclaimed" boolean DEFAULT false NOT NULL;