CREATE TABLE "gas_cylinders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gas_cylinders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"serial_number" varchar(50) NOT NULL,
	"product_id" integer,
	"product_name" varchar(50) DEFAULT '' NOT NULL,
	"balance" varchar(20) NOT NULL,
	"parents" jsonb NOT NULL,
	"certified_values" jsonb NOT NULL,
	"analyses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" varchar(12) DEFAULT 'weighed' NOT NULL,
	"analysed_at" timestamp with time zone,
	"certificate" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gas_cylinders_company_serial" UNIQUE("company_id","serial_number")
);
--> statement-breakpoint
CREATE TABLE "gas_reference_materials" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gas_reference_materials_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(50) NOT NULL,
	"certificate_no" varchar(50) NOT NULL,
	"issuer" varchar(100) DEFAULT '' NOT NULL,
	"balance" varchar(20) NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expires_on" varchar(10) NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gas_reference_materials_company_name" UNIQUE("company_id","name")
);
--> statement-breakpoint
ALTER TABLE "gas_cylinders" ADD CONSTRAINT "gas_cylinders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gas_cylinders" ADD CONSTRAINT "gas_cylinders_product_id_gas_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."gas_products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gas_reference_materials" ADD CONSTRAINT "gas_reference_materials_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;