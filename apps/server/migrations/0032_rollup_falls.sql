-- What a meter's month needs to read its day rollups instead of every reading
-- (modules/meters/balance.ts): the steps that went down, the most decimal places and the
-- sub-records of each bucket. Null on the rollups written before this: their buckets are read
-- from the records as before, until an edit or delete there recomputes them.
ALTER TABLE "data_rollups" ADD COLUMN "falls" integer;--> statement-breakpoint
ALTER TABLE "data_rollups" ADD COLUMN "places" smallint;--> statement-breakpoint
ALTER TABLE "data_rollups" ADD COLUMN "subs" integer;