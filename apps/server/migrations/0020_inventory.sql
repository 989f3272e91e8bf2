CREATE TABLE "inventory_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"kind" varchar(10) NOT NULL,
	"serialized" boolean DEFAULT true NOT NULL,
	"model" varchar(50) DEFAULT '' NOT NULL,
	"unit" varchar(10) DEFAULT '' NOT NULL,
	"notes" varchar(200) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_categories_company_name" UNIQUE("company_id","name")
);
--> statement-breakpoint
CREATE TABLE "inventory_order_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_order_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"unit_id" integer,
	"sn" varchar(50),
	"quantity" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "inventory_order_lines_unit" UNIQUE("order_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "inventory_orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"source" varchar(10),
	"number" varchar(30) NOT NULL,
	"state" varchar(10) DEFAULT 'open' NOT NULL,
	"warehouse" varchar(50) DEFAULT '' NOT NULL,
	"customer" varchar(100) DEFAULT '' NOT NULL,
	"contact" varchar(50) DEFAULT '' NOT NULL,
	"phone" varchar(30) DEFAULT '' NOT NULL,
	"address" varchar(200) DEFAULT '' NOT NULL,
	"notes" varchar(500) DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "inventory_orders_company_number" UNIQUE("company_id","number")
);
--> statement-breakpoint
CREATE TABLE "inventory_unit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_unit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"sn" varchar(50) NOT NULL,
	"action" varchar(20) NOT NULL,
	"from_status" varchar(20),
	"to_status" varchar(20) NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"order_id" integer,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_units" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inventory_units_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"sn" varchar(50) NOT NULL,
	"status" varchar(20) NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"order_id" integer,
	"warehouse" varchar(50) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_units_company_sn" UNIQUE("company_id","sn")
);
--> statement-breakpoint
ALTER TABLE "inventory_categories" ADD CONSTRAINT "inventory_categories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_order_lines" ADD CONSTRAINT "inventory_order_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_order_lines" ADD CONSTRAINT "inventory_order_lines_order_id_inventory_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."inventory_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_order_lines" ADD CONSTRAINT "inventory_order_lines_category_id_inventory_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."inventory_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_order_lines" ADD CONSTRAINT "inventory_order_lines_unit_id_inventory_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."inventory_units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_orders" ADD CONSTRAINT "inventory_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_orders" ADD CONSTRAINT "inventory_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_unit_events" ADD CONSTRAINT "inventory_unit_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_unit_events" ADD CONSTRAINT "inventory_unit_events_unit_id_inventory_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."inventory_units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_unit_events" ADD CONSTRAINT "inventory_unit_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_units" ADD CONSTRAINT "inventory_units_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_units" ADD CONSTRAINT "inventory_units_category_id_inventory_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."inventory_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_order_lines_order" ON "inventory_order_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "inventory_orders_company_kind" ON "inventory_orders" USING btree ("company_id","kind");--> statement-breakpoint
CREATE INDEX "inventory_unit_events_company_at" ON "inventory_unit_events" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "inventory_units_category" ON "inventory_units" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "inventory_units_order" ON "inventory_units" USING btree ("order_id");