CREATE TABLE "gas_components" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gas_components_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"formula" varchar(20) NOT NULL,
	"name" varchar(50) NOT NULL,
	"molar_mass" double precision NOT NULL,
	"built_in" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gas_components_company_formula" UNIQUE("company_id","formula")
);
--> statement-breakpoint
CREATE TABLE "gas_products" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gas_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"code" varchar(50) DEFAULT '' NOT NULL,
	"balance" varchar(20) NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"volume_l" double precision NOT NULL,
	"pressure_mpa" double precision NOT NULL,
	"temperature_c" double precision NOT NULL,
	"z" double precision DEFAULT 1 NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gas_products_company_name" UNIQUE("company_id","name")
);
--> statement-breakpoint
CREATE TABLE "pure_gases" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pure_gases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"main" varchar(20) NOT NULL,
	"impurities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"supplier" varchar(100) DEFAULT '' NOT NULL,
	"lot" varchar(50) DEFAULT '' NOT NULL,
	"cylinder" varchar(50) DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pure_gases_company_name" UNIQUE("company_id","name")
);
--> statement-breakpoint
ALTER TABLE "gas_components" ADD CONSTRAINT "gas_components_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gas_products" ADD CONSTRAINT "gas_products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pure_gases" ADD CONSTRAINT "pure_gases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;