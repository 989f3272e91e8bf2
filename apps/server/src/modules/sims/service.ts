/**
 * SIM cards as the two sides see them. A company (cd_sim) sees only its own cards, and of a
 * card's history (usage readings, gateways it was seen in, moves) only what happened since the
 * card became its own (`assignedAt`): a card bought from the platform's stock, or passed on
 * from another company, does not bring the earlier owner's history along. System maintenance
 * (system_sim) sees every card, the platform's stock included, with its whole history.
 */
import { canonicalSimState, usagePercent } from '@platform/domain';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { companies } from '../companies/tables';
import { users } from '../users/tables';
import type { SortField } from './schemas';
import { simCards, simSightings, simUsage } from './tables';

export type Scope = { kind: 'company'; companyId: number } | { kind: 'system' };

export type CardRow = typeof simCards.$inferSelect;

export interface Filters {
  keyword?: string;
  carrier?: number;
  state?: number;
  moved?: boolean;
  usageMin?: number;
  companyId?: number;
  stock?: boolean;
}

export interface SimView {
  id: number;
  iccid: string;
  msisdn: string | null;
  carrier: number;
  state: number;
  planMb: number | null;
  usedMb: number | null;
  usagePercent: number | null;
  usageAsOf: string | null;
  notes: string;
  holder: { serialNumber: string; since: string | null; seenAt: string | null } | null;
  moved: { from: string; to: string; at: string } | null;
  syncedAt: string | null;
  syncError: string | null;
  company?: { id: number; name: string } | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function cardView(r: CardRow, company?: { id: number; name: string } | null): SimView {
  return {
    id: r.id,
    iccid: r.iccid,
    msisdn: r.msisdn,
    carrier: r.carrier,
    state: canonicalSimState(r.state),
    planMb: r.planMb,
    usedMb: r.usedMb,
    usagePercent: usagePercent(r.usedMb, r.planMb),
    usageAsOf: iso(r.usageAsOf),
    notes: r.notes,
    holder: r.holderSn
      ? { serialNumber: r.holderSn, since: iso(r.holderSince), seenAt: iso(r.holderSeenAt) }
      : null,
    moved:
      r.moved && r.movedFrom && r.movedTo && r.movedAt
        ? { from: r.movedFrom, to: r.movedTo, at: r.movedAt.toISOString() }
        : null,
    syncedAt: iso(r.syncedAt),
    syncError: r.syncError,
    ...(company !== undefined ? { company } : {}),
  };
}

function scopeOf(scope: Scope): SQL | undefined {
  return scope.kind === 'company' ? eq(simCards.companyId, scope.companyId) : undefined;
}

/** LIKE pattern of a search text: its own % and _ are matched as they are. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function whereOf(scope: Scope, f: Filters): SQL | undefined {
  const parts: Array<SQL | undefined> = [scopeOf(scope)];
  if (scope.kind === 'system') {
    if (f.companyId !== undefined) parts.push(eq(simCards.companyId, f.companyId));
    if (f.stock === true) parts.push(isNull(simCards.companyId));
    if (f.stock === false) parts.push(isNotNull(simCards.companyId));
  }
  // ICCIDs and serial numbers are kept upper case without spaces: search them so
  const keyword = f.keyword?.replace(/[\s-]/g, '').toUpperCase();
  if (keyword) {
    const pattern = contains(keyword);
    parts.push(
      or(
        sql`${simCards.iccid} like ${pattern}`,
        sql`${simCards.msisdn} like ${pattern}`,
        sql`${simCards.holderSn} like ${pattern}`,
      ),
    );
  }
  if (f.carrier !== undefined) parts.push(eq(simCards.carrier, f.carrier));
  if (f.state !== undefined) parts.push(eq(simCards.state, canonicalSimState(f.state)));
  if (f.moved !== undefined) parts.push(eq(simCards.moved, f.moved));
  if (f.usageMin !== undefined) {
    parts.push(gt(simCards.planMb, 0), sql`${simCards.usedMb} * 100 >= ${f.usageMin} * ${simCards.planMb}`);
  }
  return and(...parts);
}

const USAGE = sql`case when ${simCards.planMb} > 0 then ${simCards.usedMb} / ${simCards.planMb} end`;

function sortExpression(field: SortField) {
  switch (field) {
    case 'iccid':
      return simCards.iccid;
    case 'carrier':
      return simCards.carrier;
    case 'state':
      return simCards.state;
    case 'planMb':
      return simCards.planMb;
    case 'usedMb':
      return simCards.usedMb;
    case 'usage':
      return USAGE;
    case 'usageAsOf':
      return simCards.usageAsOf;
    case 'holder':
      return simCards.holderSn;
    case 'createdAt':
      return simCards.createdAt;
    case 'company':
      return companies.name;
  }
}

export function orderOf(field: SortField = 'iccid', order: 'asc' | 'desc' = 'asc'): SQL[] {
  const dir = order === 'desc' ? sql`desc` : sql`asc`;
  return [sql`${sortExpression(field)} ${dir} nulls last`, asc(simCards.id)];
}

export async function listCards(
  db: Db,
  scope: Scope,
  filters: Filters,
  order: SQL[],
  page: { limit: number; offset: number },
): Promise<{ list: SimView[]; total: number }> {
  const where = whereOf(scope, filters);
  const rows = await db
    .select({ card: simCards, companyName: companies.name })
    .from(simCards)
    .leftJoin(companies, eq(companies.id, simCards.companyId))
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db.select({ n: count() }).from(simCards).where(where);
  return {
    list: rows.map((r) =>
      scope.kind === 'system'
        ? cardView(r.card, r.card.companyId ? { id: r.card.companyId, name: r.companyName ?? '' } : null)
        : cardView(r.card),
    ),
    total: Number(total?.n ?? 0),
  };
}

/** The cards a list shows, in its order, a batch at a time (exports). */
export async function* cardBatches(
  db: Db,
  scope: Scope,
  filters: Filters,
  order: SQL[],
  batch = 1000,
): AsyncGenerator<Array<{ card: CardRow; companyName: string | null }>> {
  const where = whereOf(scope, filters);
  for (let offset = 0; ; offset += batch) {
    const rows = await db
      .select({ card: simCards, companyName: companies.name })
      .from(simCards)
      .leftJoin(companies, eq(companies.id, simCards.companyId))
      .where(where)
      .orderBy(...order)
      .limit(batch)
      .offset(offset);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

/** A card of the scope, or notFound naming the field (another company's card is not there). */
export async function cardFor(db: Db, scope: Scope, id: number, field = 'id'): Promise<CardRow> {
  const [row] = await db
    .select()
    .from(simCards)
    .where(and(eq(simCards.id, id), scopeOf(scope)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

/** Since when the scope may see the card's history. */
function historySince(scope: Scope, card: CardRow): Date | null {
  return scope.kind === 'company' ? (card.assignedAt ?? card.createdAt) : null;
}

export async function cardDetail(db: Db, scope: Scope, id: number, days: number, now = new Date()) {
  const card = await cardFor(db, scope, id);
  const since = historySince(scope, card);
  const from = new Date(Math.max(now.getTime() - days * 86_400_000, since?.getTime() ?? 0));
  const usage = await db
    .select({ asOf: simUsage.asOf, usedMb: simUsage.usedMb, state: simUsage.state })
    .from(simUsage)
    .where(and(eq(simUsage.simId, card.id), gte(simUsage.asOf, from)))
    .orderBy(asc(simUsage.asOf))
    .limit(2000);
  const sightings = await db
    .select()
    .from(simSightings)
    .where(and(eq(simSightings.simId, card.id), since ? gte(simSightings.lastSeen, since) : undefined))
    .orderBy(desc(simSightings.firstSeen))
    .limit(200);
  let company: { id: number; name: string } | null | undefined;
  if (scope.kind === 'system') {
    const [row] = card.companyId
      ? await db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(eq(companies.id, card.companyId))
      : [];
    company = row ?? null;
  }
  let acknowledgedBy: string | null = null;
  if (card.moveAckBy) {
    const [who] = await db.select({ name: users.userName }).from(users).where(eq(users.id, card.moveAckBy));
    acknowledgedBy = who?.name ?? null;
  }
  const moveVisible =
    card.movedFrom && card.movedTo && card.movedAt && (!since || card.movedAt.getTime() >= since.getTime());
  return {
    ...cardView(card, company),
    createdAt: card.createdAt.toISOString(),
    assignedAt: iso(card.assignedAt),
    usage: usage.map((u) => ({
      asOf: u.asOf.toISOString(),
      usedMb: u.usedMb,
      state: canonicalSimState(u.state),
    })),
    sightings: sightings.map((s) => ({
      serialNumber: s.gatewaySn,
      firstSeen: s.firstSeen.toISOString(),
      lastSeen: s.lastSeen.toISOString(),
    })),
    lastMove: moveVisible
      ? {
          from: card.movedFrom!,
          to: card.movedTo!,
          at: card.movedAt!.toISOString(),
          acknowledgedAt: card.moved ? null : iso(card.moveAckAt),
          acknowledgedBy: card.moved ? null : acknowledgedBy,
        }
      : null,
  };
}

export async function updateCard(
  db: Db,
  scope: Scope,
  id: number,
  change: { planMb?: number | null; notes?: string },
): Promise<void> {
  const card = await cardFor(db, scope, id);
  const set: Partial<typeof simCards.$inferInsert> = { updatedAt: new Date() };
  if (change.planMb !== undefined) set.planMb = change.planMb;
  if (change.notes !== undefined) set.notes = change.notes.trim();
  await db.update(simCards).set(set).where(eq(simCards.id, card.id));
}

/** Clears the moved flag (kept as the card's last move, acknowledged by whom and when). */
export async function acknowledgeMove(db: Db, scope: Scope, id: number, userId: number): Promise<void> {
  const card = await cardFor(db, scope, id);
  if (!card.moved) return;
  await db
    .update(simCards)
    .set({ moved: false, moveAckAt: new Date(), moveAckBy: userId, updatedAt: new Date() })
    .where(and(eq(simCards.id, card.id), eq(simCards.moved, true)));
}

/**
 * Gives cards to a company (from the stock, or from another company), or back to the stock
 * (companyId null): all of them or none. The new owner starts a history of its own, so an
 * old move flag is cleared.
 */
export async function assignCards(db: Db, ids: number[], companyId: number | null): Promise<number> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    if (companyId !== null) {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(and(eq(companies.id, companyId), isNull(companies.deletedAt)));
      if (!company) throw new AppError('notFound', {}, { field: 'companyId' });
    }
    const found = await tx.select({ id: simCards.id }).from(simCards).where(inArray(simCards.id, unique));
    if (found.length !== unique.length) throw new AppError('notFound', {}, { field: 'ids' });
    const now = new Date();
    const changed = await tx
      .update(simCards)
      .set({ companyId, assignedAt: companyId === null ? null : now, moved: false, updatedAt: now })
      .where(
        and(
          inArray(simCards.id, unique),
          // a card already the company's keeps its history
          companyId === null
            ? isNotNull(simCards.companyId)
            : sql`${simCards.companyId} is distinct from ${companyId}`,
        ),
      )
      .returning({ id: simCards.id });
    return changed.length;
  });
}

/** Companies to assign cards to (the operator's picker). */
export async function companyChoices(
  db: Db,
  keyword: string | undefined,
): Promise<Array<{ id: number; name: string }>> {
  const k = keyword?.trim();
  return db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(and(isNull(companies.deletedAt), k ? sql`${companies.name} ilike ${contains(k)}` : undefined))
    .orderBy(asc(companies.name), asc(companies.id))
    .limit(50);
}
