CREATE TABLE "bind_requests" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"gateway_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"name" varchar(25) NOT NULL,
	"parent_id" integer,
	"status" varchar(10) DEFAULT 'waiting' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_operations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_operations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"actor_type" varchar(8) NOT NULL,
	"user_id" integer,
	"result" varchar(8) DEFAULT 'ok' NOT NULL,
	"detail" varchar(500) DEFAULT '' NOT NULL,
	"data" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"node_id" integer,
	"name" varchar(25) NOT NULL,
	"address" varchar(100) DEFAULT '' NOT NULL,
	"picture" varchar(300),
	"first_bound_at" timestamp with time zone NOT NULL,
	"bound_at" timestamp with time zone,
	"bound_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_company_gateway" UNIQUE("company_id","gateway_id")
);
--> statement-breakpoint
CREATE TABLE "maintenance_plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"title" varchar(50) NOT NULL,
	"interval_days" integer NOT NULL,
	"next_due" date NOT NULL,
	"last_done_on" date,
	"assignee_id" integer,
	"note" varchar(200) DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "maintenance_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" varchar(16) NOT NULL,
	"description" varchar(500) NOT NULL,
	"performed_by" varchar(50) DEFAULT '' NOT NULL,
	"cost_cents" bigint,
	"plan_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateways_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"serial_number" varchar(32) NOT NULL,
	"model" varchar(32) NOT NULL,
	"secret_hash" varchar(64) NOT NULL,
	"secret_set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"registered_by" integer,
	"company_id" integer,
	"bound_at" timestamp with time zone,
	"firmware" varchar(32),
	"iccid" varchar(32),
	"config_version" integer,
	"config_hash" varchar(64),
	"ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"online_at" timestamp with time zone,
	"offline_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"session" varchar(64),
	"status_at" timestamp with time zone,
	"telemetry_ok" integer DEFAULT 0 NOT NULL,
	"telemetry_refused" integer DEFAULT 0 NOT NULL,
	"telemetry_dropped" integer DEFAULT 0 NOT NULL,
	"telemetry_at" timestamp with time zone,
	"last_refusal" jsonb,
	CONSTRAINT "gateways_serial_number_unique" UNIQUE("serial_number")
);
--> statement-breakpoint
ALTER TABLE "bind_requests" ADD CONSTRAINT "bind_requests_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bind_requests" ADD CONSTRAINT "bind_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bind_requests" ADD CONSTRAINT "bind_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bind_requests" ADD CONSTRAINT "bind_requests_parent_id_cabin_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_operations" ADD CONSTRAINT "device_operations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_operations" ADD CONSTRAINT "device_operations_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_operations" ADD CONSTRAINT "device_operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_node_id_cabin_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_bound_by_users_id_fk" FOREIGN KEY ("bound_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_plans" ADD CONSTRAINT "maintenance_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_plan_id_maintenance_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."maintenance_plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_records" ADD CONSTRAINT "maintenance_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_registered_by_users_id_fk" FOREIGN KEY ("registered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bind_requests_gateway_status" ON "bind_requests" USING btree ("gateway_id","status");--> statement-breakpoint
CREATE INDEX "device_operations_device_at" ON "device_operations" USING btree ("company_id","gateway_id","at");--> statement-breakpoint
CREATE INDEX "devices_node" ON "devices" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "maintenance_plans_device" ON "maintenance_plans" USING btree ("company_id","gateway_id","next_due");--> statement-breakpoint
CREATE INDEX "maintenance_records_device" ON "maintenance_records" USING btree ("company_id","gateway_id","date");--> statement-breakpoint
CREATE INDEX "gateways_company" ON "gateways" USING btree ("company_id");