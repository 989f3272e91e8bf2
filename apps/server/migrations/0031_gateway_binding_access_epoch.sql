-- A gateway bound, unbound or moved to another company changes whose its messages are: every
-- node forgets the gateway's registry row it keeps for its messages (modules/gateways/hub.ts,
-- platform/access-cache.ts) through the same access epoch as keys and tokens.
CREATE TRIGGER "gateways_access_binding" AFTER UPDATE ON "gateways"
  FOR EACH ROW
  WHEN (OLD."company_id" IS DISTINCT FROM NEW."company_id" OR OLD."bound_at" IS DISTINCT FROM NEW."bound_at")
  EXECUTE FUNCTION "bump_access_epoch"();
