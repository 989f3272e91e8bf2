/** Test-only helpers of the users, roles and orders modules. */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  bearer,
  login,
  nextPhone,
  TEST_PASSWORD,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { addActiveMember } from '../companies/service';
import { companyMembers } from '../companies/tables';
import { orders } from '../orders/tables';
import { memberRoles, roles } from '../roles/tables';
import { createUser } from './service';
import { users } from './tables';

export function makePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 160, b: 90 } } })
    .png()
    .toBuffer();
}

export function makeJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 10, b: 160 } } })
    .jpeg()
    .toBuffer();
}

/** A multipart/form-data body with one file part, as a browser sends it. */
export function multipartFile(
  bytes: Buffer,
  opts: { field?: string; filename?: string; contentType?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${opts.filename ?? 'me.png'}"\r\n` +
    `Content-Type: ${opts.contentType ?? 'image/png'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A role of the company with exactly these codes. */
export async function makeRole(
  t: TestApp,
  companyId: number,
  menuCodes: string[],
  opts: { name?: string; roleType?: number } = {},
): Promise<number> {
  const [row] = await t.db
    .insert(roles)
    .values({
      companyId,
      name: opts.name ?? `role-${randomBytes(3).toString('hex')}`,
      roleType: opts.roleType ?? 2,
      menuCodes,
    })
    .returning({ id: roles.id });
  return row!.id;
}

/** A new active member holding the given roles, logged in. */
export async function makeMember(
  t: TestApp,
  company: Pick<TestCompany, 'id'>,
  roleIds: number[],
  userName = 'member',
): Promise<TestUser> {
  const user = await createUser(t.db, { phone: nextPhone(), userName, password: TEST_PASSWORD });
  await addActiveMember(t.db, company.id, user.id, roleIds);
  return { id: user.id, phone: user.phone, token: await login(t.app, user.phone) };
}

export async function userRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function membershipRow(t: TestApp, companyId: number, userId: number) {
  const [row] = await t.db
    .select()
    .from(companyMembers)
    .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  return row;
}

export async function roleIdsHeld(t: TestApp, companyId: number, userId: number): Promise<number[]> {
  const rows = await t.db
    .select({ roleId: memberRoles.roleId })
    .from(memberRoles)
    .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId)));
  return rows.map((r) => r.roleId).sort((x, y) => x - y);
}

export async function roleRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(roles).where(eq(roles.id, id));
  return row;
}

const DAY = 86_400_000;

export async function insertOrder(
  t: TestApp,
  companyId: number,
  values: Partial<typeof orders.$inferInsert> = {},
): Promise<typeof orders.$inferSelect> {
  const [row] = await t.db
    .insert(orders)
    .values({
      companyId,
      orderNo: `T-${randomBytes(6).toString('hex')}`,
      swProductId: 13,
      subTypeId: 1,
      productName: 'Smart data standard',
      amountCents: 980000,
      startsAt: new Date(Date.now() - 10 * DAY),
      endsAt: new Date(Date.now() + 355 * DAY),
      ...values,
    })
    .returning();
  return row!;
}

export { DAY };

/** POST JSON as a user. */
export function postAs(t: TestApp, token: string, url: string, payload: object, lang = 'en') {
  return t.app.inject({
    method: 'POST',
    url: `/general${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': lang },
  });
}

/** GET as a user, with query parameters. */
export function getAs(
  t: TestApp,
  token: string,
  url: string,
  query: Record<string, string> = {},
  lang = 'en',
) {
  return t.app.inject({
    method: 'GET',
    url: `/general${url}`,
    query,
    headers: { ...bearer(token), 'accept-language': lang },
  });
}
