import { bigint, pgTable, smallint } from 'drizzle-orm/pg-core';

/**
 * One row whose epoch grows whenever something that grants access changes: a token revoked,
 * a user disabled or moved to another company, a membership, role, group or data permission
 * changed, a company deleted, a submission key revoked. Database triggers bump it (migration
 * 0004), so no code path can forget to; it changes in the same transaction as the grant, so a
 * reader that sees the new epoch sees the new grants. Each server node polls it
 * (platform/access-watch.ts) and re-checks the live streams and MQTT clients it holds.
 */
export const accessEpoch = pgTable('access_epoch', {
  id: smallint('id').primaryKey().default(1),
  epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
});
