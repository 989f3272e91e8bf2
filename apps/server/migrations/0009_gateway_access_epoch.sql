-- A gateway's secret replaced or its registration removed ends its MQTT connections on every
-- node: the same access epoch as keys and tokens (platform/access-watch.ts).
CREATE TRIGGER "gateways_access_secret" AFTER UPDATE ON "gateways"
  FOR EACH ROW
  WHEN (OLD."secret_hash" IS DISTINCT FROM NEW."secret_hash") EXECUTE FUNCTION "bump_access_epoch"();
--> statement-breakpoint
CREATE TRIGGER "gateways_access_delete" AFTER DELETE ON "gateways"
  FOR EACH ROW EXECUTE FUNCTION "bump_access_epoch"();
