CREATE TABLE "access_epoch" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "access_epoch" ("id", "epoch") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_access_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_epoch" SET "epoch" = "epoch" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "tokens_access_revoke" AFTER UPDATE ON "tokens"
  FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "tokens_access_delete" AFTER DELETE ON "tokens"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "users_access_update" AFTER UPDATE ON "users"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."current_company_id" IS DISTINCT FROM NEW."current_company_id") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "users_access_delete" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "companies_access_update" AFTER UPDATE ON "companies"
  FOR EACH ROW
  WHEN (OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "companies_access_delete" AFTER DELETE ON "companies"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "company_members_access_change" AFTER INSERT OR UPDATE OR DELETE ON "company_members"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "member_roles_access_change" AFTER INSERT OR UPDATE OR DELETE ON "member_roles"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "roles_access_change" AFTER UPDATE OR DELETE ON "roles"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "user_groups_access_delete" AFTER DELETE ON "user_groups"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "group_members_access_change" AFTER INSERT OR UPDATE OR DELETE ON "group_members"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "cabin_nodes_access_move" AFTER UPDATE ON "cabin_nodes"
  FOR EACH ROW
  WHEN (OLD."parent_id" IS DISTINCT FROM NEW."parent_id" OR OLD."permission_mode" IS DISTINCT FROM NEW."permission_mode" OR OLD."company_id" IS DISTINCT FROM NEW."company_id") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "cabin_nodes_access_delete" AFTER DELETE ON "cabin_nodes"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "cabin_permissions_access_change" AFTER INSERT OR UPDATE OR DELETE ON "cabin_permissions"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "submission_keys_access_revoke" AFTER UPDATE ON "submission_keys"
  FOR EACH ROW
  WHEN (OLD."revoked_at" IS DISTINCT FROM NEW."revoked_at") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "submission_keys_access_delete" AFTER DELETE ON "submission_keys"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
