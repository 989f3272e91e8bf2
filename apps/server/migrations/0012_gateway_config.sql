CREATE TABLE "gateway_config_pushes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_config_pushes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"version" integer NOT NULL,
	"hash" varchar(64) NOT NULL,
	"state" varchar(12) DEFAULT 'waiting' NOT NULL,
	"confirm_within" integer NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"running_version" integer,
	"operation_id" bigint,
	"pushed_by" integer,
	"pushed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "gateway_config_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gateway_config_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"version" integer NOT NULL,
	"config" jsonb NOT NULL,
	"hash" varchar(64) NOT NULL,
	"node_count" smallint NOT NULL,
	"restored_from" integer,
	"saved_by" integer,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_config_versions_version" UNIQUE("company_id","gateway_id","version")
);
--> statement-breakpoint
ALTER TABLE "gateway_config_pushes" ADD CONSTRAINT "gateway_config_pushes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_config_pushes" ADD CONSTRAINT "gateway_config_pushes_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_config_pushes" ADD CONSTRAINT "gateway_config_pushes_pushed_by_users_id_fk" FOREIGN KEY ("pushed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_config_versions" ADD CONSTRAINT "gateway_config_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_config_versions" ADD CONSTRAINT "gateway_config_versions_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_config_versions" ADD CONSTRAINT "gateway_config_versions_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_config_pushes_gateway" ON "gateway_config_pushes" USING btree ("company_id","gateway_id","pushed_at");--> statement-breakpoint
CREATE INDEX "gateway_config_pushes_waiting" ON "gateway_config_pushes" USING btree ("state","deadline");