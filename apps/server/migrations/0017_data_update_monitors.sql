CREATE TABLE "data_update_checks" (
	"slot" timestamp with time zone PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"monitors" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_update_monitors" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_update_monitors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"item_id" integer,
	"gateway_id" integer,
	"window_minutes" smallint NOT NULL,
	"state" varchar(8) DEFAULT 'late' NOT NULL,
	"state_since" timestamp with time zone DEFAULT now() NOT NULL,
	"last_update_at" timestamp with time zone,
	"alarm_last_update" timestamp with time zone,
	"alarm_window" smallint,
	"alarm_id" bigint,
	"checked_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_update_monitors_target" CHECK (("data_update_monitors"."item_id" IS NULL) <> ("data_update_monitors"."gateway_id" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "data_update_monitors" ADD CONSTRAINT "data_update_monitors_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_update_monitors" ADD CONSTRAINT "data_update_monitors_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_update_monitors" ADD CONSTRAINT "data_update_monitors_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_update_monitors" ADD CONSTRAINT "data_update_monitors_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_update_monitors_item" ON "data_update_monitors" USING btree ("company_id","item_id") WHERE "data_update_monitors"."item_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "data_update_monitors_gateway" ON "data_update_monitors" USING btree ("company_id","gateway_id") WHERE "data_update_monitors"."gateway_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "data_update_monitors_state" ON "data_update_monitors" USING btree ("company_id","state");