CREATE TABLE "device_flowcharts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_flowcharts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"map" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_flowcharts_device" UNIQUE("company_id","gateway_id")
);
--> statement-breakpoint
CREATE TABLE "family_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "family_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" varchar(32) NOT NULL,
	"name" jsonb NOT NULL,
	"roles" jsonb NOT NULL,
	"body" jsonb NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_templates_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "device_flowcharts" ADD CONSTRAINT "device_flowcharts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_flowcharts" ADD CONSTRAINT "device_flowcharts_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_flowcharts" ADD CONSTRAINT "device_flowcharts_template_id_family_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."family_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_flowcharts" ADD CONSTRAINT "device_flowcharts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_templates" ADD CONSTRAINT "family_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;