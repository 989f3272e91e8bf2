/**
 * Alert delegations inside one company: the delegator's alerts also reach the delegate.
 * Every query is keyed by the caller's current company and the caller as one side of the pair.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { users } from '../users/tables';
import { alertDelegations } from './tables';

export interface DelegationRow {
  id: number;
  userId: number;
  userName: string;
  phone: string;
  createdAt: string;
}

/** One side of the caller's delegations: 'delegator' lists their delegates, 'delegate' who delegates to them. */
export async function listDelegations(
  db: Db,
  companyId: number,
  userId: number,
  callerIs: 'delegator' | 'delegate',
): Promise<DelegationRow[]> {
  const mine = callerIs === 'delegator' ? alertDelegations.delegatorId : alertDelegations.delegateId;
  const other = callerIs === 'delegator' ? alertDelegations.delegateId : alertDelegations.delegatorId;
  const rows = await db
    .select({
      id: alertDelegations.id,
      userId: users.id,
      userName: users.userName,
      phone: users.phone,
      createdAt: alertDelegations.createdAt,
    })
    .from(alertDelegations)
    .innerJoin(users, eq(users.id, other))
    .where(and(eq(alertDelegations.companyId, companyId), eq(mine, userId)))
    .orderBy(desc(alertDelegations.createdAt), desc(alertDelegations.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The unique (company, delegator, delegate) constraint refuses a repeat, also under races. */
export async function addDelegation(
  db: Db,
  input: { companyId: number; delegatorId: number; delegateId: number },
): Promise<number> {
  const [row] = await db
    .insert(alertDelegations)
    .values(input)
    .onConflictDoNothing()
    .returning({ id: alertDelegations.id });
  if (!row) throw new AppError('delegationExists', {}, { field: 'delegateId' });
  return row.id;
}

/** Only the delegator removes a delegation, and only in their current company. */
export async function deleteDelegation(
  db: Db,
  companyId: number,
  delegatorId: number,
  id: number,
): Promise<void> {
  const deleted = await db
    .delete(alertDelegations)
    .where(
      and(
        eq(alertDelegations.id, id),
        eq(alertDelegations.companyId, companyId),
        eq(alertDelegations.delegatorId, delegatorId),
      ),
    )
    .returning({ id: alertDelegations.id });
  if (deleted.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}
