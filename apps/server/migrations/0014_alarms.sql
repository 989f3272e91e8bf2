CREATE TABLE "alarm_rule_states" (
	"rule_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alarm_rule_states_rule_id_item_id_pk" PRIMARY KEY("rule_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "alarm_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarm_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"item_id" integer NOT NULL,
	"field_key" varchar(16) NOT NULL,
	"device_id" integer,
	"condition" varchar(8) NOT NULL,
	"levels" jsonb NOT NULL,
	"duration_s" integer DEFAULT 0 NOT NULL,
	"clear" jsonb,
	"recipients" jsonb DEFAULT '{"userIds":[],"groupIds":[]}'::jsonb NOT NULL,
	"channels" jsonb DEFAULT '["app"]'::jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alarms" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alarms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"origin" varchar(8) NOT NULL,
	"origin_id" integer NOT NULL,
	"rule_id" integer,
	"item_id" integer,
	"device_id" integer,
	"field_key" varchar(16),
	"name" varchar(50) NOT NULL,
	"dedupe_key" varchar(64) NOT NULL,
	"level" integer NOT NULL,
	"peak_level" integer NOT NULL,
	"value" double precision,
	"status" varchar(12) DEFAULT 'active' NOT NULL,
	"fired_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	"ack_comment" text,
	"cleared_at" timestamp with time zone,
	"cleared_by" integer,
	"clear_value" double precision,
	"notified" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alarm_rule_states" ADD CONSTRAINT "alarm_rule_states_rule_id_alarm_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alarm_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rule_states" ADD CONSTRAINT "alarm_rule_states_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_rules" ADD CONSTRAINT "alarm_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_rule_id_alarm_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alarm_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_cleared_by_users_id_fk" FOREIGN KEY ("cleared_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_rules_company" ON "alarm_rules" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "alarm_rules_item" ON "alarm_rules" USING btree ("item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_once" ON "alarms" USING btree ("dedupe_key") WHERE cleared_at is null;--> statement-breakpoint
CREATE INDEX "alarms_company_fired" ON "alarms" USING btree ("company_id","fired_at");--> statement-breakpoint
CREATE INDEX "alarms_item" ON "alarms" USING btree ("item_id");