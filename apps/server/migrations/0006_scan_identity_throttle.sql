CREATE TABLE "login_throttle" (
	"phone" varchar(20) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_throttle_phone_kind_pk" PRIMARY KEY("phone","kind")
);
--> statement-breakpoint
-- Scan sessions live minutes; the open ones cannot take the new NOT NULL columns, so they end here.
DELETE FROM "scan_sessions";--> statement-breakpoint
ALTER TABLE "scan_sessions" ADD COLUMN "state" varchar(64) NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_sessions" ADD COLUMN "provider" varchar(16) NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_sessions" ADD COLUMN "code_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "scan_sessions" ADD CONSTRAINT "scan_sessions_state_unique" UNIQUE("state");--> statement-breakpoint
ALTER TABLE "scan_sessions" ADD CONSTRAINT "scan_sessions_code_hash_unique" UNIQUE("code_hash");--> statement-breakpoint
-- Scan identities bound before now were derived from a nickname (sha256 of 'wx:' + nickname),
-- which other people can see and type: they would let anyone log in as the account. They are
-- cleared; the person binds the account again at the next scan (phone and SMS code), with an
-- identity of the new kind ('standin:' + a secret kept by their browser, or 'wx:' + openid).
UPDATE "users" SET "wx_open_id" = NULL
  WHERE "wx_open_id" IS NOT NULL AND "wx_open_id" NOT LIKE 'standin:%' AND "wx_open_id" NOT LIKE 'wx:%';
