import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { hashPassword } from '../../platform/password';
import { sha256 } from '../../platform/tokens';
import { tokens } from '../auth/tables';
import { users } from './tables';

export type UserRow = typeof users.$inferSelect;

export async function findUserByPhone(db: Db, phone: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.phone, phone));
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** The name of an account whose owner gave none: 用户 and the phone's last four digits. */
export function defaultUserName(phone: string): string {
  return `用户${phone.slice(-4)}`;
}

export async function createUser(
  db: Db,
  input: { phone: string; userName?: string; password?: string | null; wxOpenId?: string | null },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      phone: input.phone,
      userName: input.userName?.trim() || defaultUserName(input.phone),
      passwordHash: input.password ? await hashPassword(input.password) : null,
      wxOpenId: input.wxOpenId ?? null,
    })
    .returning();
  return row!;
}

export async function updateProfile(
  db: Db,
  userId: number,
  change: { userName?: string; email?: string | null },
): Promise<UserRow> {
  const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  const [row] = await db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row!;
}

/** Sets a new password and ends every other session of the user; the current token stays. */
export async function changePassword(
  db: Db,
  userId: number,
  password: string,
  currentToken: string,
): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await tx
      .update(tokens)
      .set({ revokedAt: new Date() })
      .where(
        and(eq(tokens.userId, userId), isNull(tokens.revokedAt), ne(tokens.tokenHash, sha256(currentToken))),
      );
  });
}

/** Records the first acceptance of the terms of use; accepting again keeps the first time. */
export async function acceptTerms(db: Db, userId: number): Promise<Date> {
  const [row] = await db
    .update(users)
    .set({ termsAcceptedAt: sql`coalesce(${users.termsAcceptedAt}, now())` })
    .where(eq(users.id, userId))
    .returning({ termsAcceptedAt: users.termsAcceptedAt });
  return row!.termsAcceptedAt!;
}
