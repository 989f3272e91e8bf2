CREATE TABLE "config_screen_leases" (
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"lease_id" varchar(32) NOT NULL,
	"user_id" integer NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "config_screen_leases_company_id_gateway_id_pk" PRIMARY KEY("company_id","gateway_id")
);
--> statement-breakpoint
CREATE TABLE "config_screens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "config_screens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"gateway_id" integer NOT NULL,
	"body" jsonb NOT NULL,
	"element_count" smallint NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "config_screens_device" UNIQUE("company_id","gateway_id")
);
--> statement-breakpoint
ALTER TABLE "config_screen_leases" ADD CONSTRAINT "config_screen_leases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_screen_leases" ADD CONSTRAINT "config_screen_leases_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_screen_leases" ADD CONSTRAINT "config_screen_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_screens" ADD CONSTRAINT "config_screens_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_screens" ADD CONSTRAINT "config_screens_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_screens" ADD CONSTRAINT "config_screens_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;