CREATE TABLE "meter_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "meter_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"meter_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" varchar(200) DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meter_events_meter_kind_at" UNIQUE("meter_id","kind","at")
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "meters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"code" varchar(25) NOT NULL,
	"item_id" integer,
	"points" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ct_primary" double precision DEFAULT 1 NOT NULL,
	"ct_secondary" double precision DEFAULT 1 NOT NULL,
	"pt_primary" double precision DEFAULT 1 NOT NULL,
	"pt_secondary" double precision DEFAULT 1 NOT NULL,
	"register_digits" smallint,
	"sampling_id" smallint,
	"formula" varchar(1000),
	"refs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"parent_meter_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meters_node_id_unique" UNIQUE("node_id"),
	CONSTRAINT "meters_company_code" UNIQUE("company_id","code")
);
--> statement-breakpoint
CREATE TABLE "tou_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"schedule" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"large_load_gap" boolean DEFAULT false NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meter_events" ADD CONSTRAINT "meter_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_events" ADD CONSTRAINT "meter_events_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_events" ADD CONSTRAINT "meter_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_node_id_cabin_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_parent_meter_id_meters_id_fk" FOREIGN KEY ("parent_meter_id") REFERENCES "public"."meters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tou_settings" ADD CONSTRAINT "tou_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tou_settings" ADD CONSTRAINT "tou_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_events_company_at" ON "meter_events" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "meters_company" ON "meters" USING btree ("company_id");