/**
 * Carousels (menu code sd_board_play, docs/boards.md): a company's ordered lists of boards. A
 * carousel belongs to the company; the boards in it keep their own data permissions: saving
 * one needs read level on each board, and the player is given only the boards the caller can
 * read (the others are skipped, as a board that failed to load).
 */
import { checkPlayEntries, DATA_PERMISSION, type PlayEntry } from '@platform/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { cabinNodes } from '../cabin/tables';
import { type BoardData, type BoardView, boardData, boardFor } from './service';
import { boardPlays } from './tables';

export interface PlayRow {
  id: number;
  name: string;
  entries: Array<PlayEntry & { name: string | null }>;
  updatedAt: string;
}

/** Board names of the entries the caller can read; null for a board gone or unreadable. */
async function withNames(db: Db, caller: DataCaller, entries: PlayEntry[]): Promise<PlayRow['entries']> {
  const ids = [...new Set(entries.map((e) => e.boardId))];
  if (ids.length === 0) return [];
  const [nodes, levels] = await Promise.all([
    db
      .select({ id: cabinNodes.id, name: cabinNodes.name, type: cabinNodes.type })
      .from(cabinNodes)
      .where(and(eq(cabinNodes.companyId, caller.companyId), inArray(cabinNodes.id, ids))),
    levelsFor(db, caller, ids),
  ]);
  const names = new Map(
    nodes
      .filter((n) => n.type === 'dashboard' && (levels.get(n.id) ?? 0) > DATA_PERMISSION.none)
      .map((n) => [n.id, n.name]),
  );
  return entries.map((e) => ({ ...e, name: names.get(e.boardId) ?? null }));
}

export async function listPlays(db: Db, caller: DataCaller): Promise<PlayRow[]> {
  const rows = await db
    .select()
    .from(boardPlays)
    .where(eq(boardPlays.companyId, caller.companyId))
    .orderBy(desc(boardPlays.updatedAt), desc(boardPlays.id));
  const all = await withNames(
    db,
    caller,
    rows.flatMap((r) => r.entries),
  );
  let at = 0;
  return rows.map((r) => {
    const entries = all.slice(at, at + r.entries.length);
    at += r.entries.length;
    return { id: r.id, name: r.name, entries, updatedAt: r.updatedAt.toISOString() };
  });
}

async function playRow(db: Db, caller: DataCaller, id: number, field = 'id') {
  const [row] = await db
    .select()
    .from(boardPlays)
    .where(and(eq(boardPlays.id, id), eq(boardPlays.companyId, caller.companyId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

export async function playFor(db: Db, caller: DataCaller, id: number): Promise<PlayRow> {
  const row = await playRow(db, caller, id);
  return {
    id: row.id,
    name: row.name,
    entries: await withNames(db, caller, row.entries),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Creates (no id) or replaces a carousel. Every board must be a dashboard of the company the
 * caller can read (40400 on `entries[i].boardId` otherwise); nothing is written before all pass.
 */
export async function savePlay(
  db: Db,
  caller: DataCaller,
  input: { id: number | null; name: string; entries: unknown },
): Promise<PlayRow> {
  if (input.id != null) await playRow(db, caller, input.id);
  const checked = checkPlayEntries(input.entries);
  if (!checked.ok) {
    throw new AppError(
      'boardInvalid',
      { field: checked.field, reason: checked.reason },
      { field: checked.field },
    );
  }
  const named = await withNames(db, caller, checked.entries);
  const missing = named.findIndex((e) => e.name === null);
  if (missing >= 0) throw new AppError('notFound', {}, { field: `entries[${missing}].boardId` });
  const now = new Date();
  let id = input.id;
  if (id == null) {
    const [row] = await db
      .insert(boardPlays)
      .values({
        companyId: caller.companyId,
        name: input.name,
        entries: checked.entries,
        createdBy: caller.userId,
      })
      .returning({ id: boardPlays.id });
    id = row!.id;
  } else {
    await db
      .update(boardPlays)
      .set({ name: input.name, entries: checked.entries, updatedAt: now })
      .where(and(eq(boardPlays.id, id), eq(boardPlays.companyId, caller.companyId)));
  }
  return playFor(db, caller, id);
}

export async function deletePlay(db: Db, caller: DataCaller, id: number): Promise<void> {
  await playRow(db, caller, id);
  await db.delete(boardPlays).where(and(eq(boardPlays.id, id), eq(boardPlays.companyId, caller.companyId)));
}

/** One board of a carousel for the player, with what its widgets show: in the carousel and readable. */
export async function playBoard(
  db: Db,
  caller: DataCaller,
  input: { id: number; boardId: number },
): Promise<{ board: BoardView; data: BoardData }> {
  const play = await playRow(db, caller, input.id);
  if (!play.entries.some((e) => e.boardId === input.boardId))
    throw new AppError('notFound', {}, { field: 'boardId' });
  const board = await boardFor(db, caller, input.boardId, DATA_PERMISSION.read, 'boardId');
  return { board, data: await boardData(db, caller, board.body) };
}
