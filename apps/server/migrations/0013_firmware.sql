CREATE TABLE "firmware_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "firmware_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"version_id" integer,
	"version" varchar(32) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_upgrades" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "firmware_upgrades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"version_id" integer,
	"batch_id" integer,
	"version" varchar(32) NOT NULL,
	"from_version" varchar(32),
	"state" varchar(12) DEFAULT 'queued' NOT NULL,
	"progress" smallint,
	"reason" varchar(20),
	"detail" varchar(300),
	"timeouts" jsonb NOT NULL,
	"link_base" varchar(300) NOT NULL,
	"rev" integer DEFAULT 0 NOT NULL,
	"operation_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ack_deadline" timestamp with time zone,
	"progress_deadline" timestamp with time zone,
	"total_deadline" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "firmware_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "firmware_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"model" varchar(32) NOT NULL,
	"version" varchar(32) NOT NULL,
	"size" integer NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"storage_key" varchar(300) NOT NULL,
	"file_name" varchar(200) NOT NULL,
	"notes_zh" text DEFAULT '' NOT NULL,
	"notes_en" text DEFAULT '' NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "firmware_versions_model_version" UNIQUE("model","version")
);
--> statement-breakpoint
ALTER TABLE "firmware_batches" ADD CONSTRAINT "firmware_batches_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_batches" ADD CONSTRAINT "firmware_batches_version_id_firmware_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."firmware_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_batches" ADD CONSTRAINT "firmware_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrades" ADD CONSTRAINT "firmware_upgrades_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrades" ADD CONSTRAINT "firmware_upgrades_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrades" ADD CONSTRAINT "firmware_upgrades_version_id_firmware_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."firmware_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrades" ADD CONSTRAINT "firmware_upgrades_batch_id_firmware_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."firmware_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_upgrades" ADD CONSTRAINT "firmware_upgrades_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_versions" ADD CONSTRAINT "firmware_versions_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_batches_company" ON "firmware_batches" USING btree ("company_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_upgrades_one_live" ON "firmware_upgrades" USING btree ("gateway_id") WHERE "firmware_upgrades"."state" not in ('success', 'failed');--> statement-breakpoint
CREATE INDEX "firmware_upgrades_device" ON "firmware_upgrades" USING btree ("company_id","gateway_id","id");--> statement-breakpoint
CREATE INDEX "firmware_upgrades_state" ON "firmware_upgrades" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "firmware_upgrades_batch" ON "firmware_upgrades" USING btree ("batch_id");