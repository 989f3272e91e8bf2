CREATE TABLE "sim_cards" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"iccid" varchar(20) NOT NULL,
	"company_id" integer,
	"carrier" smallint DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"msisdn" varchar(13),
	"plan_mb" double precision,
	"used_mb" double precision,
	"usage_as_of" timestamp with time zone,
	"notes" varchar(200) DEFAULT '' NOT NULL,
	"holder_sn" varchar(32),
	"holder_since" timestamp with time zone,
	"holder_seen_at" timestamp with time zone,
	"moved" boolean DEFAULT false NOT NULL,
	"moved_from" varchar(32),
	"moved_to" varchar(32),
	"moved_at" timestamp with time zone,
	"move_ack_at" timestamp with time zone,
	"move_ack_by" integer,
	"synced_at" timestamp with time zone,
	"sync_error" varchar(200),
	"assigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_cards_iccid_unique" UNIQUE("iccid")
);
--> statement-breakpoint
CREATE TABLE "sim_sightings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_sightings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sim_id" integer NOT NULL,
	"gateway_sn" varchar(32) NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_sync_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_sync_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"fire_time" timestamp with time zone NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" varchar(8) NOT NULL,
	"cards" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"message" text,
	CONSTRAINT "sim_sync_fire" UNIQUE("fire_time","manual")
);
--> statement-breakpoint
CREATE TABLE "sim_usage" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_usage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sim_id" integer NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"used_mb" double precision NOT NULL,
	"state" smallint NOT NULL,
	CONSTRAINT "sim_usage_reading" UNIQUE("sim_id","as_of")
);
--> statement-breakpoint
ALTER TABLE "sim_cards" ADD CONSTRAINT "sim_cards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_cards" ADD CONSTRAINT "sim_cards_move_ack_by_users_id_fk" FOREIGN KEY ("move_ack_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_sightings" ADD CONSTRAINT "sim_sightings_sim_id_sim_cards_id_fk" FOREIGN KEY ("sim_id") REFERENCES "public"."sim_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_usage" ADD CONSTRAINT "sim_usage_sim_id_sim_cards_id_fk" FOREIGN KEY ("sim_id") REFERENCES "public"."sim_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sim_cards_company" ON "sim_cards" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "sim_cards_holder" ON "sim_cards" USING btree ("holder_sn");--> statement-breakpoint
CREATE INDEX "sim_sightings_sim" ON "sim_sightings" USING btree ("sim_id","first_seen");