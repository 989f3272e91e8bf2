CREATE TABLE "production_schedules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "production_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"number" varchar(30) NOT NULL,
	"category_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"line" varchar(50) NOT NULL,
	"start_on" varchar(10) NOT NULL,
	"end_on" varchar(10) NOT NULL,
	"status" varchar(20) DEFAULT 'planned' NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notes" varchar(500) DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "production_schedules_company_number" UNIQUE("company_id","number")
);
--> statement-breakpoint
ALTER TABLE "inventory_units" ADD COLUMN "schedule_id" integer;--> statement-breakpoint
ALTER TABLE "production_schedules" ADD CONSTRAINT "production_schedules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "production_schedules" ADD CONSTRAINT "production_schedules_category_id_inventory_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."inventory_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "production_schedules" ADD CONSTRAINT "production_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "production_schedules_company_status" ON "production_schedules" USING btree ("company_id","status");--> statement-breakpoint
CREATE INDEX "inventory_units_schedule" ON "inventory_units" USING btree ("schedule_id");