import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  login,
  makeCompany,
  nextPhone,
  TEST_PASSWORD,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { addActiveMember } from '../companies/service';
import { companyMembers } from '../companies/tables';
import { makeGroup } from '../groups/route-cases';
import { createUser } from '../users/service';
import { levelOf, levelsFor } from './permissions';
import { cabinNodes, cabinPermissions } from './tables';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** a second ordinary member of A */
let other: TestUser;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  const user = await createUser(t.db, { phone: nextPhone(), userName: 'other', password: TEST_PASSWORD });
  await addActiveMember(t.db, a.id, user.id, [a.ordinaryRoleId]);
  other = { id: user.id, phone: user.phone, token: await login(t.app, user.phone) };
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({ method, url: `/general/smartdata${url}`, payload, headers: bearer(token) });
}

const callerOf = (user: TestUser) => ({ companyId: a.id, userId: user.id });

async function treeIds(user: TestUser): Promise<number[]> {
  return ((await call('GET', '/cabin/tree', user.token)).json().data as Array<{ id: number }>).map(
    (r) => r.id,
  );
}

describe('resolver', () => {
  it('defaults to read-write, gives administrators and creators 3', async () => {
    const dir = await makeDirectory(t, a.id, { createdBy: other.id });
    expect(await levelOf(t.db, callerOf(a.limited), dir)).toBe(2);
    expect(await levelOf(t.db, callerOf(a.admin), dir)).toBe(3);
    expect(await levelOf(t.db, callerOf(other), dir)).toBe(3);
    // custom none for everyone: admin and creator keep 3
    await setPermissions(t, dir, [{ scope: 'company', subjectId: null, level: 0 }]);
    expect(await levelOf(t.db, callerOf(a.limited), dir)).toBe(0);
    expect(await levelOf(t.db, callerOf(a.admin), dir)).toBe(3);
    expect(await levelOf(t.db, callerOf(other), dir)).toBe(3);
    // another company's node is 0 even for that company's administrator
    expect(await levelOf(t.db, { companyId: b.id, userId: b.admin.id }, dir)).toBe(0);
  });

  it('inherits a custom directory and lets children override both ways', async () => {
    const readOnly = await makeDirectory(t, a.id);
    const plain = await makeItem(t, a.id, { parentId: readOnly });
    const deep = await makeDirectory(t, a.id, { parentId: readOnly });
    const deepItem = await makeItem(t, a.id, { parentId: deep });
    const writable = await makeItem(t, a.id, { parentId: readOnly });
    await setPermissions(t, readOnly, [{ scope: 'company', subjectId: null, level: 1 }]);
    await setPermissions(t, writable.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 2 }]);

    const open = await makeDirectory(t, a.id);
    await setPermissions(t, open, [{ scope: 'company', subjectId: null, level: 2 }]);
    const closed = await makeItem(t, a.id, { parentId: open });
    await setPermissions(t, closed.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);

    const levels = await levelsFor(t.db, callerOf(a.limited));
    expect(levels.get(readOnly)).toBe(1);
    expect(levels.get(plain.nodeId)).toBe(1);
    expect(levels.get(deepItem.nodeId)).toBe(1);
    expect(levels.get(writable.nodeId)).toBe(2);
    expect(levels.get(open)).toBe(2);
    expect(levels.get(closed.nodeId)).toBe(0);
    // the other member is not named on `closed`: no entry for them and no company entry → 0
    expect(await levelOf(t.db, callerOf(other), closed.nodeId)).toBe(0);
    expect(await levelOf(t.db, callerOf(other), writable.nodeId)).toBe(0);
    expect(await levelOf(t.db, callerOf(other), plain.nodeId)).toBe(1);
    // asked for a few nodes, only they and their ancestors are read: the same answers
    const asked = [readOnly, plain.nodeId, deep, deepItem.nodeId, writable.nodeId, open, closed.nodeId];
    for (const user of [a.limited, other, a.admin]) {
      const whole = await levelsFor(t.db, callerOf(user));
      const few = await levelsFor(t.db, callerOf(user), asked);
      expect([...few.entries()]).toEqual(asked.map((id) => [id, whole.get(id)]));
      for (const id of asked)
        expect((await levelsFor(t.db, callerOf(user), [id])).get(id)).toBe(whole.get(id));
    }
    // a node of another company is absent, not read
    const foreign = await makeDirectory(t, b.id);
    expect((await levelsFor(t.db, callerOf(a.admin), [foreign, plain.nodeId])).has(foreign)).toBe(false);
  });

  it('takes the own entry first, then the best group, then the company entry', async () => {
    const g1 = await makeGroup(t, a.id, [a.limited.id, other.id]);
    const g2 = await makeGroup(t, a.id, [a.limited.id]);
    const dir = await makeDirectory(t, a.id);
    await setPermissions(t, dir, [
      { scope: 'company', subjectId: null, level: 0 },
      { scope: 'group', subjectId: g1, level: 1 },
      { scope: 'group', subjectId: g2, level: 3 },
      { scope: 'user', subjectId: other.id, level: 2 },
    ]);
    expect(await levelOf(t.db, callerOf(a.limited), dir)).toBe(3);
    expect(await levelOf(t.db, callerOf(other), dir)).toBe(2);
    await setPermissions(t, dir, [
      { scope: 'company', subjectId: null, level: 2 },
      { scope: 'group', subjectId: g1, level: 1 },
    ]);
    expect(await levelOf(t.db, callerOf(a.limited), dir)).toBe(1);
    // a group of another company does not count
    const foreign = await makeGroup(t, b.id, [a.limited.id]);
    await setPermissions(t, dir, [{ scope: 'group', subjectId: foreign, level: 3 }]);
    expect(await levelOf(t.db, callerOf(a.limited), dir)).toBe(0);
  });
});

describe('permission routes', () => {
  it('reads and sets the entries; inherit drops them', async () => {
    const group = await makeGroup(t, a.id, [other.id]);
    const dir = await makeDirectory(t, a.id, { createdBy: a.limited.id });
    const get = await call('GET', `/cabin/permission?nodeId=${dir}`, a.limited.token);
    expect(get.json()).toMatchObject({ code: 0, data: { mode: 'inherit', entries: [], level: 3 } });

    const entries = [
      { scope: 'company', subjectId: null, level: 1 },
      { scope: 'group', subjectId: group, level: 2 },
      { scope: 'user', subjectId: other.id, level: 3 },
    ];
    const set = await call('POST', '/cabin/permission', a.limited.token, {
      nodeId: dir,
      mode: 'custom',
      entries,
    });
    expect(set.json().code).toBe(0);
    const after = await call('GET', `/cabin/permission?nodeId=${dir}`, a.limited.token);
    expect(after.json().data).toEqual({ mode: 'custom', entries, level: 3 });
    expect(await levelOf(t.db, callerOf(other), dir)).toBe(3);

    const inherit = await call('POST', '/cabin/permission', a.limited.token, {
      nodeId: dir,
      mode: 'inherit',
      entries,
    });
    expect(inherit.json().code).toBe(0);
    expect(await t.db.select().from(cabinPermissions).where(eq(cabinPermissions.nodeId, dir))).toEqual([]);
    const [row] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, dir));
    expect(row!.permissionMode).toBe('inherit');
  });

  it('refuses bad entries naming the field, writing nothing', async () => {
    const dir = await makeDirectory(t, a.id);
    await setPermissions(t, dir, [{ scope: 'company', subjectId: null, level: 2 }]);
    const foreignGroup = await makeGroup(t, b.id, []);
    const ownGroup = await makeGroup(t, a.id, []);
    // a former member is not a subject any more
    const gone = await createUser(t.db, { phone: nextPhone(), userName: 'gone', password: TEST_PASSWORD });
    await addActiveMember(t.db, a.id, gone.id, [a.ordinaryRoleId]);
    await t.db.update(companyMembers).set({ status: 'left' }).where(eq(companyMembers.userId, gone.id));
    const cases: Array<[unknown[], string]> = [
      [[{ scope: 'group', subjectId: foreignGroup, level: 1 }], 'entries[0].subjectId'],
      [[{ scope: 'user', subjectId: b.limited.id, level: 1 }], 'entries[0].subjectId'],
      [[{ scope: 'user', subjectId: gone.id, level: 1 }], 'entries[0].subjectId'],
      [[{ scope: 'user', level: 1 }], 'entries[0].subjectId'],
      [[{ scope: 'company', subjectId: 5, level: 1 }], 'entries[0].subjectId'],
      [
        [
          { scope: 'group', subjectId: ownGroup, level: 1 },
          { scope: 'group', subjectId: ownGroup, level: 2 },
        ],
        'entries[1].subjectId',
      ],
      [[{ scope: 'user', subjectId: a.limited.id, level: 4 }], 'entries.0.level'],
      [[{ scope: 'team', subjectId: 1, level: 1 }], 'entries.0.scope'],
    ];
    for (const [entries, field] of cases) {
      const res = await call('POST', '/cabin/permission', a.admin.token, {
        nodeId: dir,
        mode: 'custom',
        entries,
      });
      expect(res.json(), JSON.stringify(entries)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    const bad = await call('POST', '/cabin/permission', a.admin.token, {
      nodeId: dir,
      mode: 'open',
      entries: [],
    });
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'mode' } });
    const rows = await t.db.select().from(cabinPermissions).where(eq(cabinPermissions.nodeId, dir));
    expect(rows.map((r) => [r.scope, r.subjectId, r.level])).toEqual([['company', null, 2]]);
  });

  it('needs level 3 to read or set permissions', async () => {
    const dir = await makeDirectory(t, a.id);
    expect((await call('GET', `/cabin/permission?nodeId=${dir}`, a.limited.token)).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    const res = await call('POST', '/cabin/permission', a.limited.token, {
      nodeId: dir,
      mode: 'custom',
      entries: [],
    });
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const [row] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, dir));
    expect(row!.permissionMode).toBe('inherit');
    // a user granted 3 on a parent directory may set it on the child
    await setPermissions(t, dir, [{ scope: 'user', subjectId: a.limited.id, level: 3 }]);
    const child = await makeDirectory(t, a.id, { parentId: dir });
    expect(
      (
        await call('POST', '/cabin/permission', a.limited.token, {
          nodeId: child,
          mode: 'custom',
          entries: [],
        })
      ).json().code,
    ).toBe(0);
  });
});

describe('routes honour the levels', () => {
  it('read-only: sees the node and the item, cannot rename, delete, configure or create inside', async () => {
    const dir = await makeDirectory(t, a.id, { name: 'RO dir' });
    const item = await makeItem(t, a.id, { parentId: dir, fields: SAMPLE_FIELDS });
    await setPermissions(t, dir, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    const tok = a.limited.token;
    expect(await treeIds(a.limited)).toEqual(expect.arrayContaining([dir, item.nodeId]));
    expect((await call('GET', `/item/get?itemId=${item.itemId}`, tok)).json()).toMatchObject({
      code: 0,
      data: { level: 1 },
    });
    const refused = [
      await call('POST', '/cabin/rename', tok, { id: item.nodeId, name: 'x' }),
      await call('POST', '/cabin/delete', tok, { ids: [item.nodeId] }),
      await call('POST', '/cabin/move', tok, { ids: [item.nodeId], targetId: null }),
      await call('POST', '/cabin/copy', tok, { ids: [item.nodeId], targetId: null }),
      await call('POST', '/cabin/create', tok, { parentId: dir, type: 'directory', name: 'x' }),
      await call('POST', '/item/update', tok, { itemId: item.itemId, description: 'x' }),
      await call('POST', '/item/updateForm', tok, { itemId: item.itemId, form: [] }),
      await call('POST', '/cabin/permission', tok, { nodeId: item.nodeId, mode: 'inherit' }),
    ];
    for (const res of refused) expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    const [node] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, item.nodeId));
    expect(node).toMatchObject({ name: expect.any(String), parentId: dir });
  });

  it('no permission: the node is absent from tree and search and answers 40400', async () => {
    const dir = await makeDirectory(t, a.id, { name: 'Invisible' });
    const item = await makeItem(t, a.id, { parentId: dir, name: 'Invisible item' });
    await setPermissions(t, dir, [
      { scope: 'user', subjectId: a.limited.id, level: 0 },
      { scope: 'company', subjectId: null, level: 1 },
    ]);
    const tok = a.limited.token;
    const ids = await treeIds(a.limited);
    expect(ids).not.toContain(dir);
    expect(ids).not.toContain(item.nodeId);
    expect((await call('GET', '/cabin/search?keyword=Invisible', tok)).json().data).toEqual([]);
    const refused = [
      await call('GET', `/item/get?itemId=${item.itemId}`, tok),
      await call('GET', `/item/jumps?itemId=${item.itemId}`, tok),
      await call('POST', '/cabin/rename', tok, { id: dir, name: 'x' }),
      await call('POST', '/cabin/delete', tok, { ids: [item.nodeId] }),
      await call('GET', `/cabin/permission?nodeId=${dir}`, tok),
      await call('POST', '/cabin/create', tok, { parentId: dir, type: 'directory', name: 'x' }),
    ];
    for (const res of refused) expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
    // others still see it through the company-wide entry
    expect(await treeIds(other)).toContain(item.nodeId);
  });
});
