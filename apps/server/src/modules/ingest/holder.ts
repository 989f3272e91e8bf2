/**
 * What a submission key's holder must still hold for the key to write: the data cabin's menu
 * code (the code needed to create a key) in the key's company, read at each submission, so a
 * holder who lost it (their roles changed) has keys that stop at once, like a disabled
 * holder's. Their data permission on each item is read at each submission too (submit.ts).
 */
import type { MenuCode } from '@platform/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { inFlightPer } from '../../platform/in-flight';
import { memberRoles, roles } from '../roles/tables';

/** The code that creates keys and that a key's holder must keep: the data cabin's. */
export const KEY_CODE: MenuCode = 'sd_capsule';

function prepareHolds(db: Db) {
  return db
    .select({ roleId: memberRoles.roleId })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .where(
      and(
        eq(memberRoles.companyId, sql.placeholder('companyId')),
        eq(memberRoles.userId, sql.placeholder('userId')),
        sql`${roles.menuCodes} @> ${JSON.stringify([KEY_CODE])}::jsonb`,
      ),
    )
    .limit(1)
    .prepare('submission_holder_code');
}
const statements = new WeakMap<Db, ReturnType<typeof prepareHolds>>();
/** concurrent submissions of one holder share the read (platform/in-flight.ts) */
const checks = inFlightPer<Db, boolean>();

/**
 * Whether the holder holds KEY_CODE in the company. The membership itself (active, company not
 * deleted, account enabled) is checked by resolveKey; a company code is never a system code,
 * so it takes effect in every company.
 */
export function holdsKeyCode(db: Db, holder: { companyId: number; userId: number }): Promise<boolean> {
  let statement = statements.get(db);
  if (!statement) {
    statement = prepareHolds(db);
    statements.set(db, statement);
  }
  const run = statement;
  return checks(db).run(`${holder.companyId}:${holder.userId}`, async () => {
    const rows = await run.execute({ companyId: holder.companyId, userId: holder.userId });
    return rows.length > 0;
  });
}
