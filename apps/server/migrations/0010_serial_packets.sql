CREATE TABLE "frame_stats" (
	"company_id" integer NOT NULL,
	"sn" varchar(32) NOT NULL,
	"port" integer NOT NULL,
	"stored" integer DEFAULT 0 NOT NULL,
	"bad_crc" integer DEFAULT 0 NOT NULL,
	"wrong_length" integer DEFAULT 0 NOT NULL,
	"bad_answer" integer DEFAULT 0 NOT NULL,
	"unknown_packet" integer DEFAULT 0 NOT NULL,
	"decode_errors" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"malformed" integer DEFAULT 0 NOT NULL,
	"last_error" jsonb,
	"last_frame_at" timestamp with time zone,
	CONSTRAINT "frame_stats_company_id_sn_port_pk" PRIMARY KEY("company_id","sn","port")
);
--> statement-breakpoint
CREATE TABLE "serial_packages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "serial_packages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"name" varchar(25) NOT NULL,
	"frame" varchar(800) NOT NULL,
	"append_crc" boolean DEFAULT true NOT NULL,
	"value_type" varchar(8) NOT NULL,
	"encoding" varchar(5) NOT NULL,
	"sampling_id" smallint NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "serial_parsers" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"answer_length" integer,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "frame_stats" ADD CONSTRAINT "frame_stats_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serial_packages" ADD CONSTRAINT "serial_packages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serial_packages" ADD CONSTRAINT "serial_packages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serial_parsers" ADD CONSTRAINT "serial_parsers_package_id_serial_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."serial_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serial_parsers" ADD CONSTRAINT "serial_parsers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "serial_parsers" ADD CONSTRAINT "serial_parsers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "serial_packages_company_name" ON "serial_packages" USING btree ("company_id","name");--> statement-breakpoint
CREATE INDEX "serial_parsers_company" ON "serial_parsers" USING btree ("company_id");