/**
 * The access epoch: every write that can take access away moves it (the triggers of migration
 * 0004), writes that cannot leave it alone, and a listener hears a change made after it
 * registered.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinNodes } from '../modules/cabin/tables';
import { makeDirectory, setPermissions } from '../modules/cabin/test-support';
import { companies, companyMembers } from '../modules/companies/tables';
import { groupMembers, userGroups } from '../modules/groups/tables';
import { createKey, revokeKey } from '../modules/ingest/keys';
import { memberRoles, roles } from '../modules/roles/tables';
import { users } from '../modules/users/tables';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../test/helper';
import { accessEpoch } from './access-tables';
import { AccessWatch } from './access-watch';
import { revokeAllTokens } from './tokens';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Epoch A');
});

afterAll(async () => {
  await t.close();
});

async function epoch(): Promise<number> {
  const [row] = await t.db.select({ epoch: accessEpoch.epoch }).from(accessEpoch);
  return Number(row!.epoch);
}

async function moves(write: () => Promise<unknown>): Promise<boolean> {
  const before = await epoch();
  await write();
  return (await epoch()) !== before;
}

describe('the access epoch', () => {
  it('moves when a token is revoked, a user disabled or moved to another company', async () => {
    expect(await moves(() => revokeAllTokens(t.db, a.limited.id))).toBe(true);
    expect(await moves(() => t.db.update(users).set({ status: 2 }).where(eq(users.id, a.limited.id)))).toBe(
      true,
    );
    expect(await moves(() => t.db.update(users).set({ status: 1 }).where(eq(users.id, a.limited.id)))).toBe(
      true,
    );
    expect(
      await moves(() => t.db.update(users).set({ currentCompanyId: null }).where(eq(users.id, a.limited.id))),
    ).toBe(true);
    expect(
      await moves(() => t.db.update(users).set({ currentCompanyId: a.id }).where(eq(users.id, a.limited.id))),
    ).toBe(true);
  });

  it('moves when a membership, a role, a group or a data permission changes', async () => {
    expect(
      await moves(() =>
        t.db
          .update(companyMembers)
          .set({ status: 'removed' })
          .where(and(eq(companyMembers.companyId, a.id), eq(companyMembers.userId, a.limited.id))),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        t.db
          .update(companyMembers)
          .set({ status: 'active' })
          .where(and(eq(companyMembers.companyId, a.id), eq(companyMembers.userId, a.limited.id))),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        t.db
          .update(roles)
          .set({ menuCodes: ['pc_my_order'] })
          .where(eq(roles.id, a.ordinaryRoleId)),
      ),
    ).toBe(true);
    expect(
      await moves(() =>
        t.db
          .delete(memberRoles)
          .where(and(eq(memberRoles.userId, a.limited.id), eq(memberRoles.roleId, a.ordinaryRoleId))),
      ),
    ).toBe(true);
    const [group] = await t.db
      .insert(userGroups)
      .values({ companyId: a.id, name: 'epoch group' })
      .returning({ id: userGroups.id });
    expect(
      await moves(() => t.db.insert(groupMembers).values({ groupId: group!.id, userId: a.limited.id })),
    ).toBe(true);
    expect(await moves(() => t.db.delete(userGroups).where(eq(userGroups.id, group!.id)))).toBe(true);
    const dir = await makeDirectory(t, a.id);
    expect(await moves(() => setPermissions(t, dir, [{ scope: 'company', subjectId: null, level: 1 }]))).toBe(
      true,
    );
    const parent = await makeDirectory(t, a.id);
    expect(
      await moves(() => t.db.update(cabinNodes).set({ parentId: parent }).where(eq(cabinNodes.id, dir))),
    ).toBe(true);
    expect(await moves(() => t.db.delete(cabinNodes).where(eq(cabinNodes.id, dir)))).toBe(true);
  });

  it('moves when a submission key is revoked or a company deleted', async () => {
    const key = await createKey(t.db, { companyId: a.id, userId: a.admin.id, name: 'k', kind: 'user' });
    expect(await moves(() => revokeKey(t.db, a.id, a.admin.id, key.id))).toBe(true);
    const other = await makeCompany(t, 'Epoch doomed');
    expect(
      await moves(() =>
        t.db.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, other.id)),
      ),
    ).toBe(true);
  });

  it('stays still when nothing that grants access changes', async () => {
    expect(
      await moves(() => t.db.update(users).set({ userName: 'renamed' }).where(eq(users.id, a.admin.id))),
    ).toBe(false);
    expect(await moves(() => makeDirectory(t, a.id))).toBe(false);
    const dir = await makeDirectory(t, a.id);
    expect(
      await moves(() => t.db.update(cabinNodes).set({ name: 'renamed' }).where(eq(cabinNodes.id, dir))),
    ).toBe(false);
    // revoking nothing (no live token left) is no change either
    await revokeAllTokens(t.db, a.limited.id);
    expect(await moves(() => revokeAllTokens(t.db, a.limited.id))).toBe(false);
  });
});

describe('AccessWatch', () => {
  it('calls a listener once a grant changes after it registered, and not before', async () => {
    const watch = new AccessWatch(t.db, t.app.log, 20);
    let calls = 0;
    const off = watch.onChange(() => {
      calls += 1;
    });
    await watch.ready();
    await watch.poll();
    expect(calls).toBe(0);
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, a.limited.id));
    await expect.poll(() => calls, { timeout: 5000 }).toBe(1);
    await watch.poll();
    expect(calls).toBe(1);
    off();
    await t.db.update(users).set({ status: 1 }).where(eq(users.id, a.limited.id));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
    watch.close();
  });

  it('keeps calling the other listeners when one throws', async () => {
    const watch = new AccessWatch(t.db, t.app.log, 20);
    let heard = false;
    watch.onChange(() => {
      throw new Error('broken listener');
    });
    watch.onChange(() => {
      heard = true;
    });
    await watch.ready();
    await t.db.update(users).set({ status: 2 }).where(eq(users.id, a.limited.id));
    await expect.poll(() => heard, { timeout: 5000 }).toBe(true);
    watch.close();
  });
});
