/**
 * Boards and their per-user state (docs/boards.md). A board is a cabin node of type
 * `dashboard` (or `dashboardTemplate`) addressed by its node id; every call goes through the
 * node's data permission: read to view, open and remember a selection, write to save. A node
 * made through the cabin routes has no body yet: it reads as an empty board of version 0.
 */
import {
  type BoardBody,
  boardChartRefs,
  boardItemIds,
  builtInTemplate,
  checkBoardBody,
  DATA_PERMISSION,
  type DataPermission,
  emptyBoard,
  type FieldDef,
  type RecordValues,
} from '@platform/domain';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { createNode, nodeFor } from '../cabin/service';
import { cabinNodes } from '../cabin/tables';
import { charts } from '../charts/tables';
import { dataItems } from '../dataitems/tables';
import { readableDevices } from '../devices/access';
import { visibleValues } from '../records/service';
import { dataRecords } from '../records/tables';
import { boards, boardUserState } from './tables';

export const BOARD_NODE_TYPES = ['dashboard', 'dashboardTemplate'] as const;
export type BoardNodeType = (typeof BOARD_NODE_TYPES)[number];
const isBoardType = (t: string): t is BoardNodeType => (BOARD_NODE_TYPES as readonly string[]).includes(t);

/** how many boards "opened last" lists */
export const RECENT_LIMIT = 6;

export interface BoardRow {
  id: number;
  type: BoardNodeType;
  name: string;
  parentId: number | null;
  mode: BoardBody['mode'];
  widgetCount: number;
  level: DataPermission;
  version: number;
  updatedAt: string;
}

export interface BoardView extends BoardRow {
  body: BoardBody;
  /** the widget this user last selected in the designer */
  selectedWidget: string | null;
}

/** A stored body, checked again on the way out (a row written by an older release still reads). */
function bodyOf(raw: Record<string, unknown> | null | undefined): BoardBody {
  if (!raw) return emptyBoard();
  const checked = checkBoardBody(raw);
  return checked.ok ? checked.body : emptyBoard();
}

const later = (a: Date, b: Date | null | undefined) => (b && b > a ? b : a).toISOString();

/** The company's boards the caller can read, newest change first. */
export async function listBoards(db: Db, caller: DataCaller): Promise<BoardRow[]> {
  const rows = await db
    .select({ node: cabinNodes, board: boards })
    .from(cabinNodes)
    .leftJoin(boards, eq(boards.nodeId, cabinNodes.id))
    .where(and(eq(cabinNodes.companyId, caller.companyId), inArray(cabinNodes.type, [...BOARD_NODE_TYPES])));
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.node.id),
  );
  return rows
    .filter((r) => (levels.get(r.node.id) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .map((r) => {
      const body = bodyOf(r.board?.body);
      return {
        id: r.node.id,
        type: r.node.type as BoardNodeType,
        name: r.node.name,
        parentId: r.node.parentId,
        mode: body.mode,
        widgetCount: body.widgets.length,
        level: levels.get(r.node.id)!,
        version: r.board?.version ?? 0,
        updatedAt: later(r.node.updatedAt, r.board?.updatedAt),
      };
    })
    .sort((x, y) => y.updatedAt.localeCompare(x.updatedAt) || y.id - x.id);
}

/** The board behind a node the caller holds `needed` on; a node of another type is 40400. */
export async function boardFor(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  needed: DataPermission,
  field = 'id',
): Promise<BoardView> {
  const node = await nodeFor(db, caller, nodeId, needed, field);
  if (!isBoardType(node.type)) throw new AppError('notABoard', {}, { field });
  const [[board], [state], levels] = await Promise.all([
    db
      .select()
      .from(boards)
      .where(and(eq(boards.nodeId, node.id), eq(boards.companyId, caller.companyId))),
    db
      .select({ selectedWidget: boardUserState.selectedWidget })
      .from(boardUserState)
      .where(and(eq(boardUserState.userId, caller.userId), eq(boardUserState.nodeId, node.id))),
    levelsFor(db, caller, [node.id]),
  ]);
  const body = bodyOf(board?.body);
  const selected = state?.selectedWidget ?? null;
  return {
    id: node.id,
    type: node.type,
    name: node.name,
    parentId: node.parentId,
    mode: body.mode,
    widgetCount: body.widgets.length,
    level: levels.get(node.id) ?? DATA_PERMISSION.none,
    version: board?.version ?? 0,
    updatedAt: later(node.updatedAt, board?.updatedAt),
    body,
    selectedWidget: selected && body.widgets.some((w) => w.id === selected) ? selected : null,
  };
}

/** A body checked, or the catalogue's error naming the broken field. */
export function checkedBody(raw: unknown, field = 'body'): BoardBody {
  const checked = checkBoardBody(raw);
  if (!checked.ok) {
    const path = checked.field === 'body' ? field : `${field}.${checked.field.replace(/^body\./, '')}`;
    throw new AppError('boardInvalid', { field: path, reason: checked.reason }, { field: path });
  }
  return checked.body;
}

/**
 * A new board in a directory (write level there), its body from a built-in template (`template`
 * a code), from a board or template the caller can read (`fromId`), or empty in `mode`.
 */
export async function createBoard(
  db: Db,
  caller: DataCaller,
  input: {
    parentId: number | null;
    name: string;
    type: BoardNodeType;
    mode: BoardBody['mode'];
    template: string | null;
    fromId: number | null;
  },
): Promise<BoardView> {
  let body: BoardBody;
  if (input.fromId != null)
    body = (await boardFor(db, caller, input.fromId, DATA_PERMISSION.read, 'fromId')).body;
  else if (input.template != null) {
    const found = builtInTemplate(input.template);
    if (!found) throw fieldError('template', 'notFound');
    body = found.body;
  } else body = emptyBoard(input.mode);
  const created = await createNode(db, caller, {
    parentId: input.parentId,
    type: input.type,
    name: input.name,
    kind: null,
  });
  const [row] = await db
    .insert(boards)
    .values({ companyId: caller.companyId, nodeId: created.id, body: { ...body }, updatedBy: caller.userId })
    .returning({ id: boards.id });
  await db.update(cabinNodes).set({ refId: row!.id }).where(eq(cabinNodes.id, created.id));
  return boardFor(db, caller, created.id, DATA_PERMISSION.read);
}

/**
 * Saves a body based on `version` (the one the editor loaded): write level, the body checked,
 * and only if nobody saved since; a stale save is refused (boardStale with the current version)
 * and writes nothing. The check and the write are one conditional UPDATE, so two saves based on
 * the same version cannot both pass, on one node or many.
 */
export async function saveBoard(
  db: Db,
  caller: DataCaller,
  input: { id: number; version: number; body: unknown },
): Promise<BoardView> {
  const current = await boardFor(db, caller, input.id, DATA_PERMISSION.write);
  const body = checkedBody(input.body);
  const now = new Date();
  const saved = await db.transaction(async (tx) => {
    let rows: Array<{ id: number }>;
    if (input.version === 0) {
      rows = await tx
        .insert(boards)
        .values({
          companyId: caller.companyId,
          nodeId: current.id,
          body: { ...body },
          updatedBy: caller.userId,
        })
        .onConflictDoNothing({ target: boards.nodeId })
        .returning({ id: boards.id });
      if (rows.length > 0)
        await tx.update(cabinNodes).set({ refId: rows[0]!.id }).where(eq(cabinNodes.id, current.id));
    } else {
      rows = await tx
        .update(boards)
        .set({
          body: { ...body },
          version: sql`${boards.version} + 1`,
          updatedBy: caller.userId,
          updatedAt: now,
        })
        .where(
          and(
            eq(boards.nodeId, current.id),
            eq(boards.companyId, caller.companyId),
            eq(boards.version, input.version),
          ),
        )
        .returning({ id: boards.id });
    }
    if (rows.length === 0) return false;
    await tx.update(cabinNodes).set({ updatedAt: now }).where(eq(cabinNodes.id, current.id));
    return true;
  });
  if (!saved) {
    const [row] = await db
      .select({ version: boards.version })
      .from(boards)
      .where(eq(boards.nodeId, current.id));
    throw new AppError(
      'boardStale',
      { version: row?.version ?? 0 },
      { field: 'version', version: row?.version ?? 0 },
    );
  }
  return boardFor(db, caller, input.id, DATA_PERMISSION.read);
}

async function upsertState(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  set: { selectedWidget?: string | null; openedAt?: Date },
): Promise<void> {
  await db
    .insert(boardUserState)
    .values({ userId: caller.userId, nodeId, companyId: caller.companyId, ...set })
    .onConflictDoUpdate({ target: [boardUserState.userId, boardUserState.nodeId], set });
}

/** Remembers the widget the caller selected last on a board they can read (null: none). */
export async function selectWidget(
  db: Db,
  caller: DataCaller,
  input: { id: number; widgetId: string | null },
): Promise<void> {
  const board = await boardFor(db, caller, input.id, DATA_PERMISSION.read);
  if (input.widgetId != null && !board.body.widgets.some((w) => w.id === input.widgetId)) {
    throw fieldError('widgetId', 'notFound');
  }
  await upsertState(db, caller, board.id, { selectedWidget: input.widgetId });
}

/** A board opened for display: read level; remembered as opened now (home page). */
export async function openBoard(db: Db, caller: DataCaller, id: number): Promise<BoardView> {
  const board = await boardFor(db, caller, id, DATA_PERMISSION.read);
  await upsertState(db, caller, board.id, { openedAt: new Date() });
  return board;
}

/** The boards the caller opened last and can still read, most recent first. */
export async function recentBoards(
  db: Db,
  caller: DataCaller,
): Promise<Array<{ id: number; name: string; mode: BoardBody['mode']; openedAt: string }>> {
  const rows = await db
    .select({
      id: cabinNodes.id,
      name: cabinNodes.name,
      openedAt: boardUserState.openedAt,
      body: boards.body,
    })
    .from(boardUserState)
    .innerJoin(cabinNodes, eq(cabinNodes.id, boardUserState.nodeId))
    .leftJoin(boards, eq(boards.nodeId, cabinNodes.id))
    .where(
      and(
        eq(boardUserState.userId, caller.userId),
        eq(boardUserState.companyId, caller.companyId),
        eq(cabinNodes.companyId, caller.companyId),
        isNotNull(boardUserState.openedAt),
      ),
    )
    .orderBy(desc(boardUserState.openedAt))
    .limit(RECENT_LIMIT * 4);
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.id),
  );
  return rows
    .filter((r) => (levels.get(r.id) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .slice(0, RECENT_LIMIT)
    .map((r) => ({ id: r.id, name: r.name, mode: bodyOf(r.body).mode, openedAt: r.openedAt!.toISOString() }));
}

export interface BoardItemData {
  itemId: number;
  name: string;
  fields: Array<Pick<FieldDef, 'key' | 'name' | 'unit' | 'type' | 'decimals'>>;
  /** newest first */
  records: Array<{ id: number; ts: string; values: RecordValues }>;
}

export interface BoardData {
  items: BoardItemData[];
  /** items the board names that the caller cannot read (or that are gone): widgets say so */
  missingItemIds: number[];
  devices: Array<{ id: number; name: string; online: boolean; changedAt: string | null }> | null;
  at: string;
}

/**
 * What a board's widgets show when it opens: for each data item it names that the caller can
 * read, its fields and newest records (as many as its largest table widget shows); the readable
 * devices' online state when a device-status widget is on it. Live updates follow over the
 * WebSocket, one subscription per item.
 */
export async function boardData(db: Db, caller: DataCaller, body: BoardBody): Promise<BoardData> {
  const itemIds = boardItemIds(body);
  const rowsWanted = new Map<number, number>();
  for (const w of body.widgets) {
    if (w.hidden) continue;
    if (w.type === 'number' && w.config.itemId != null)
      rowsWanted.set(w.config.itemId, Math.max(rowsWanted.get(w.config.itemId) ?? 1, 1));
    if (w.type === 'table' && w.config.itemId != null)
      rowsWanted.set(w.config.itemId, Math.max(rowsWanted.get(w.config.itemId) ?? 1, w.config.rows));
  }
  const items =
    itemIds.length === 0
      ? []
      : await db
          .select({
            id: dataItems.id,
            nodeId: dataItems.nodeId,
            name: dataItems.name,
            fields: dataItems.fields,
          })
          .from(dataItems)
          .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, itemIds)));
  const levels = items.length
    ? await levelsFor(
        db,
        caller,
        items.map((i) => i.nodeId),
      )
    : new Map<number, number>();
  const readable = items.filter((i) => (levels.get(i.nodeId) ?? 0) > DATA_PERMISSION.none);
  const out: BoardItemData[] = await Promise.all(
    readable.map(async (item) => {
      const records = await db
        .select({ id: dataRecords.id, ts: dataRecords.ts, values: dataRecords.values })
        .from(dataRecords)
        .where(
          and(
            eq(dataRecords.companyId, caller.companyId),
            eq(dataRecords.itemId, item.id),
            sql`${dataRecords.parentId} IS NULL`,
          ),
        )
        .orderBy(desc(dataRecords.ts), desc(dataRecords.id))
        .limit(rowsWanted.get(item.id) ?? 1);
      return {
        itemId: item.id,
        name: item.name,
        fields: item.fields.map((f) => ({
          key: f.key,
          name: f.name,
          unit: f.unit,
          type: f.type,
          decimals: f.decimals,
        })),
        records: records.map((r) => ({
          id: r.id,
          ts: r.ts.toISOString(),
          values: visibleValues(r.values, item.fields),
        })),
      };
    }),
  );
  const seen = new Set(out.map((i) => i.itemId));
  const wantsDevices = body.widgets.some((w) => w.type === 'deviceStatus' && !w.hidden);
  const devices = wantsDevices
    ? (await readableDevices(db, caller))
        .map(({ device, gateway }) => ({
          id: gateway.id,
          name: device.name,
          online: gateway.online,
          changedAt: (gateway.online ? gateway.onlineAt : gateway.offlineAt)?.toISOString() ?? null,
        }))
        .sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name))
    : null;
  return {
    items: out,
    missingItemIds: itemIds.filter((id) => !seen.has(id)),
    devices,
    at: new Date().toISOString(),
  };
}

/** The bodies of the company's boards (and board templates) the caller can read. */
async function readableBodies(db: Db, caller: DataCaller): Promise<BoardBody[]> {
  const rows = await db
    .select({ nodeId: cabinNodes.id, body: boards.body })
    .from(cabinNodes)
    .innerJoin(boards, eq(boards.nodeId, cabinNodes.id))
    .where(and(eq(cabinNodes.companyId, caller.companyId), inArray(cabinNodes.type, [...BOARD_NODE_TYPES])));
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  return rows
    .filter((r) => (levels.get(r.nodeId) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .map((r) => bodyOf(r.body));
}

/**
 * The rule that lets a board viewer (sd_board without sd_capsule) follow a board's values:
 * of `itemIds`, those some board of the caller's company that the caller can read shows (a
 * number card, table or chart on it). The items' own data permission is checked apart, by
 * the caller of this: a board never widens what an item's permission refuses.
 */
export async function itemsOnReadableBoards(
  db: Db,
  caller: DataCaller,
  itemIds: readonly number[],
): Promise<Set<number>> {
  if (itemIds.length === 0) return new Set();
  const wanted = new Set(itemIds);
  const shown = new Set<number>();
  for (const body of await readableBodies(db, caller)) {
    for (const id of boardItemIds(body)) if (wanted.has(id)) shown.add(id);
  }
  return shown;
}

/** Whether some board the caller can read draws chart `chartId` of item `itemId`. */
export async function chartOnReadableBoard(
  db: Db,
  caller: DataCaller,
  chartId: number,
  itemId: number,
): Promise<boolean> {
  for (const body of await readableBodies(db, caller)) {
    if (boardChartRefs(body).some((c) => c.chartId === chartId && c.itemId === itemId)) return true;
  }
  return false;
}

/** The company's data items the caller can read, with their fields (the designer's pickers). */
export async function readableItems(
  db: Db,
  caller: DataCaller,
): Promise<Array<{ id: number; name: string; fields: BoardItemData['fields'] }>> {
  const rows = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, name: dataItems.name, fields: dataItems.fields })
    .from(dataItems)
    .where(eq(dataItems.companyId, caller.companyId));
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  return rows
    .filter((r) => (levels.get(r.nodeId) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .map((r) => ({
      id: r.id,
      name: r.name,
      fields: r.fields.map((f) => ({
        key: f.key,
        name: f.name,
        unit: f.unit,
        type: f.type,
        decimals: f.decimals,
      })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Every chart of the company's items the caller can read (the chart widget's picker). */
export async function readableCharts(
  db: Db,
  caller: DataCaller,
): Promise<Array<{ id: number; name: string; type: string; itemId: number; itemName: string }>> {
  const rows = await db
    .select({
      id: charts.id,
      name: charts.name,
      type: charts.type,
      itemId: dataItems.id,
      itemName: dataItems.name,
      nodeId: dataItems.nodeId,
    })
    .from(charts)
    .innerJoin(dataItems, eq(dataItems.id, charts.itemId))
    .where(and(eq(charts.companyId, caller.companyId), eq(dataItems.companyId, caller.companyId)));
  if (rows.length === 0) return [];
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  return rows
    .filter((r) => (levels.get(r.nodeId) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .map(({ nodeId: _n, ...r }) => r)
    .sort((a, b) => a.itemName.localeCompare(b.itemName) || a.name.localeCompare(b.name) || a.id - b.id);
}
