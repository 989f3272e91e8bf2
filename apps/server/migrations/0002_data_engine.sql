CREATE TABLE "analysis_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analysis_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"name" varchar(25) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"cron" varchar(120),
	"run_at" timestamp with time zone,
	"type" varchar(16) DEFAULT 'record' NOT NULL,
	"assignments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analysis_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"job_id" integer NOT NULL,
	"fire_time" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" varchar(8) NOT NULL,
	"message" text,
	"record_id" bigint,
	CONSTRAINT "analysis_runs_fire" UNIQUE("job_id","fire_time")
);
--> statement-breakpoint
CREATE TABLE "cabin_nodes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cabin_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"parent_id" integer,
	"type" varchar(24) NOT NULL,
	"name" varchar(25) NOT NULL,
	"ref_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"permission_mode" varchar(8) DEFAULT 'inherit' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cabin_permissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cabin_permissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"node_id" integer NOT NULL,
	"scope" varchar(8) NOT NULL,
	"subject_id" integer,
	"level" smallint NOT NULL,
	CONSTRAINT "cabin_permissions_subject" UNIQUE NULLS NOT DISTINCT("node_id","scope","subject_id")
);
--> statement-breakpoint
CREATE TABLE "data_item_jumps" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_item_jumps_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"item_id" integer NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"name" varchar(25) NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"target_item_id" integer NOT NULL,
	"mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"node_id" integer NOT NULL,
	"name" varchar(25) NOT NULL,
	"kind" smallint NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_field_no" integer DEFAULT 1 NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"form" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"title_field" varchar(16),
	"public_collect" boolean DEFAULT false NOT NULL,
	"description" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_items_node_id_unique" UNIQUE("node_id")
);
--> statement-breakpoint
CREATE TABLE "item_group_members" (
	"group_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "item_group_members_group_id_item_id_pk" PRIMARY KEY("group_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "item_groups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "item_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(25) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "submission_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" varchar(8) NOT NULL,
	"name" varchar(25) NOT NULL,
	"device_id" varchar(64),
	"prefix" varchar(12) NOT NULL,
	"key_hash" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "submission_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "data_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"values" jsonb NOT NULL,
	"parent_id" bigint,
	"source" varchar(10) DEFAULT 'manual' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "data_rollups" (
	"item_id" integer NOT NULL,
	"field_key" varchar(16) NOT NULL,
	"grain" varchar(1) NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"sum" double precision NOT NULL,
	"min" double precision NOT NULL,
	"max" double precision NOT NULL,
	"first_ts" timestamp with time zone NOT NULL,
	"first_value" double precision NOT NULL,
	"last_ts" timestamp with time zone NOT NULL,
	"last_value" double precision NOT NULL,
	CONSTRAINT "data_rollups_item_id_field_key_grain_bucket_pk" PRIMARY KEY("item_id","field_key","grain","bucket")
);
--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_jobs" ADD CONSTRAINT "analysis_jobs_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_runs" ADD CONSTRAINT "analysis_runs_job_id_analysis_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."analysis_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabin_nodes" ADD CONSTRAINT "cabin_nodes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabin_nodes" ADD CONSTRAINT "cabin_nodes_parent_id_cabin_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabin_nodes" ADD CONSTRAINT "cabin_nodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabin_permissions" ADD CONSTRAINT "cabin_permissions_node_id_cabin_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_item_jumps" ADD CONSTRAINT "data_item_jumps_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_item_jumps" ADD CONSTRAINT "data_item_jumps_target_item_id_data_items_id_fk" FOREIGN KEY ("target_item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_items" ADD CONSTRAINT "data_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_items" ADD CONSTRAINT "data_items_node_id_cabin_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."cabin_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_group_members" ADD CONSTRAINT "item_group_members_group_id_item_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."item_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_group_members" ADD CONSTRAINT "item_group_members_item_id_data_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."data_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_groups" ADD CONSTRAINT "item_groups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_keys" ADD CONSTRAINT "submission_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_keys" ADD CONSTRAINT "submission_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_records" ADD CONSTRAINT "data_records_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analysis_jobs_item" ON "analysis_jobs" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "analysis_jobs_next" ON "analysis_jobs" USING btree ("next_run_at");--> statement-breakpoint
CREATE INDEX "cabin_nodes_company_parent" ON "cabin_nodes" USING btree ("company_id","parent_id");--> statement-breakpoint
CREATE INDEX "data_item_jumps_item" ON "data_item_jumps" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "data_items_company" ON "data_items" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "submission_keys_company" ON "submission_keys" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "data_records_item_ts" ON "data_records" USING btree ("item_id","ts");--> statement-breakpoint
CREATE INDEX "data_records_parent" ON "data_records" USING btree ("parent_id");