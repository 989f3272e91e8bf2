/**
 * The write pipeline every source uses (`app.ingest.write`): validate every record against
 * its item's fields (any bad record refuses the whole call, nothing written), then GROUP
 * COMMIT: concurrent calls queue and one flusher writes everything queued in one
 * transaction, answering each caller only after COMMIT, so nothing acknowledged is lost.
 * A lone caller never waits for a timer: an idle flusher starts at once, and whatever
 * arrives while a flush is in flight goes in the next one. After commit: live fan-out and
 * jump associations (which write through this same pipeline, depth-limited).
 */
import {
  type DataSource,
  type ErrorKey,
  type FieldDef,
  isRecordTime,
  type JumpCondition,
  type JumpMapping,
  type Lang,
  messageFor,
  type RecordSource,
} from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { LiveBus } from '../../platform/live';
import { companies } from '../companies/tables';
import { dataItemJumps, dataItems } from '../dataitems/tables';
import { dataRecords } from '../records/tables';
import { runJumps } from './jumps';
import { CHUNK, insertRecords, type NewRecord } from './store';
import { validateRecord } from './validate';

export interface IngestRecord {
  itemId: number;
  /** the record's time; arrival time when absent */
  ts?: Date | string | null;
  /** by field key or field name */
  values: Record<string, unknown>;
  parentId?: number | null;
}

export interface WriteRequest {
  companyId: number;
  /** the acting user (createdBy); null for system writes */
  userId: number | null;
  source: RecordSource;
  records: IngestRecord[];
  /** jump depth of this write: 0 for writes from outside */
  depth?: number;
}

export interface ItemDef {
  id: number;
  companyId: number;
  nodeId: number;
  name: string;
  fields: FieldDef[];
  sources: DataSource[];
  publicCollect: boolean;
  /** the company's time zone: a date-only value of a dateTime field is its local midnight */
  timeZone: string | null;
}

export interface JumpDef {
  id: number;
  priority: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number;
  mapping: JumpMapping[];
}

/**
 * Runs after every commit with the committed rows by item (alarm rules, last-seen times). A
 * failing hook is logged: the records are committed and the caller's answer stands.
 */
export type CommitHook = (
  companyId: number,
  byItem: Map<number, Array<{ row: NewRecord; id: number }>>,
) => Promise<void>;

/** the answer to one call of `writeEach`: its new ids, or why nothing of it was written */
export type WriteResult = { ids: number[] } | { error: unknown };

/** records of one flush; a single call larger than this is written alone */
export const BATCH_LIMIT = 5_000;
/** jumps stop here, so a loop of associations cannot run forever */
export const MAX_JUMP_DEPTH = 5;
/** a cached definition is re-read after this long even without invalidation (other nodes) */
const CACHE_TTL_MS = 10_000;

interface Pending {
  rows: NewRecord[];
  resolve: (ids: number[]) => void;
  reject: (error: unknown) => void;
}

const pipelines = new Set<IngestPipeline>();

/**
 * Forget the cached definition and jumps of an item in every pipeline of this process. Call
 * after changing an item's fields, sources, publicCollect, jumps, or deleting it.
 */
export function invalidateItem(itemId: number): void {
  for (const p of pipelines) p.invalidateItem(itemId);
}

export class IngestPipeline {
  private readonly items = new Map<number, { def: ItemDef | null; at: number }>();
  private readonly jumps = new Map<number, { list: JumpDef[]; at: number }>();
  private queue: Pending[] = [];
  private readonly commitHooks: CommitHook[] = [];
  private flushing: Promise<void> | null = null;
  /** transactions and records written so far (tests and metrics) */
  readonly stats = { flushes: 0, records: 0 };

  constructor(
    readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly live?: LiveBus,
    private readonly timeZone?: string,
  ) {
    pipelines.add(this);
  }

  /** Adds a hook run after each commit, before jump associations (see CommitHook). */
  onCommit(hook: CommitHook): void {
    this.commitHooks.push(hook);
  }

  invalidateItem(itemId: number): void {
    this.items.delete(itemId);
    this.jumps.delete(itemId);
  }

  /** Definitions of these items (null when absent); cached by id. */
  async itemDefs(itemIds: number[]): Promise<Map<number, ItemDef | null>> {
    const now = Date.now();
    const out = new Map<number, ItemDef | null>();
    const missing: number[] = [];
    for (const id of new Set(itemIds)) {
      const hit = this.items.get(id);
      if (hit && now - hit.at < CACHE_TTL_MS) out.set(id, hit.def);
      else missing.push(id);
    }
    if (missing.length > 0) {
      const rows = await this.db
        .select({
          id: dataItems.id,
          companyId: dataItems.companyId,
          nodeId: dataItems.nodeId,
          name: dataItems.name,
          fields: dataItems.fields,
          sources: dataItems.sources,
          publicCollect: dataItems.publicCollect,
          timeZone: companies.timeZone,
        })
        .from(dataItems)
        .leftJoin(companies, eq(companies.id, dataItems.companyId))
        .where(inArray(dataItems.id, missing));
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const id of missing) {
        const def = found.get(id) ?? null;
        this.items.set(id, { def, at: now });
        out.set(id, def);
      }
    }
    return out;
  }

  /** Enabled jumps of an item, cached by item id. */
  async jumpsOf(itemId: number): Promise<JumpDef[]> {
    const hit = this.jumps.get(itemId);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.list;
    const list = await this.db
      .select({
        id: dataItemJumps.id,
        priority: dataItemJumps.priority,
        name: dataItemJumps.name,
        conditions: dataItemJumps.conditions,
        targetItemId: dataItemJumps.targetItemId,
        mapping: dataItemJumps.mapping,
      })
      .from(dataItemJumps)
      .where(and(eq(dataItemJumps.itemId, itemId), eq(dataItemJumps.enabled, true)));
    this.jumps.set(itemId, { list, at: Date.now() });
    return list;
  }

  /**
   * Validates, group-commits and answers with the new ids in the order of `records`, after
   * COMMIT. Then publishes to live subscribers and runs jump associations.
   */
  async write(request: WriteRequest): Promise<{ ids: number[] }> {
    const [result] = await this.writeEach(request, [request.records]);
    if (!result || 'error' in result) throw result?.error;
    return result;
  }

  /**
   * Several independent calls of one caller at once (the MQTT messages of one key that arrive
   * together): each is checked and answered on its own, all or nothing for that call, and a
   * bad one does not refuse the others. They share one definition read, join the same group
   * commit, and the live fan-out and jump associations run once for everything committed.
   */
  async writeEach(base: Omit<WriteRequest, 'records'>, calls: IngestRecord[][]): Promise<WriteResult[]> {
    const defs = await this.itemDefs(calls.flatMap((records) => records.map((r) => r.itemId)));
    const prepared = await Promise.all(
      calls.map((records) =>
        this.prepare({ ...base, records }, defs).then(
          (rows) => ({ rows }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
    // queued together, so they go into one commit even when the flusher is idle
    const committed = this.enqueue(
      prepared.flatMap((p) => ('rows' in p && p.rows.length > 0 ? [p.rows] : [])),
    );
    let next = 0;
    const results = await Promise.all(
      prepared.map((p): Promise<WriteResult> | WriteResult =>
        'error' in p
          ? p
          : p.rows.length === 0
            ? { ids: [] }
            : committed[next++]!.then(
                (ids) => ({ ids }),
                (error: unknown) => ({ error }),
              ),
      ),
    );
    const rows: NewRecord[] = [];
    const ids: number[] = [];
    prepared.forEach((p, i) => {
      const result = results[i]!;
      if ('rows' in p && 'ids' in result) {
        rows.push(...p.rows);
        ids.push(...result.ids);
      }
    });
    if (rows.length > 0) await this.afterCommit(base, rows, ids);
    return results;
  }

  /** Checks every record; the first bad one refuses the call (40000 naming index, item and field). */
  private async prepare(request: WriteRequest, defs: Map<number, ItemDef | null>): Promise<NewRecord[]> {
    const { companyId, records } = request;
    const now = new Date();
    const rows: NewRecord[] = [];
    for (const [index, record] of records.entries()) {
      const fail = (field: string, key: ErrorKey, params?: Record<string, string | number>) =>
        recordError(index, record.itemId, field, key, params);
      const item = defs.get(record.itemId);
      // another company's item is answered as absent
      if (!item || item.companyId !== companyId)
        throw recordError(index, record.itemId, 'itemId', 'notFound');
      let ts = now;
      if (record.ts != null) {
        ts = record.ts instanceof Date ? record.ts : new Date(record.ts);
        if (typeof record.ts === 'string' && !/^\d{4}-\d{2}-\d{2}/.test(record.ts)) ts = new Date(Number.NaN);
        // outside 1970..9999 is a device's clock gone wrong (and -1e15 ms is no PostgreSQL time)
        if (!isRecordTime(ts.getTime())) throw fail('ts', 'validation', { field: 'ts' });
      }
      const checked = validateRecord(item.fields, record.values, item.timeZone ?? this.timeZone);
      if (!checked.ok) throw fail(checked.field, checked.key, checked.params);
      rows.push({
        companyId,
        itemId: item.id,
        ts,
        values: checked.values,
        parentId: record.parentId ?? null,
        source: request.source,
        createdBy: request.userId,
      });
    }
    await this.checkParents(request, rows);
    return rows;
  }

  /** a parent record must exist in the caller's company */
  private async checkParents(request: WriteRequest, rows: NewRecord[]): Promise<void> {
    const parentIds = [...new Set(rows.map((r) => r.parentId).filter((p): p is number => p != null))];
    if (parentIds.length === 0) return;
    const found = await this.db
      .select({ id: dataRecords.id })
      .from(dataRecords)
      .where(and(inArray(dataRecords.id, parentIds), eq(dataRecords.companyId, request.companyId)));
    const known = new Set(found.map((r) => r.id));
    const index = rows.findIndex((r) => r.parentId != null && !known.has(r.parentId));
    if (index >= 0) throw recordError(index, rows[index]!.itemId, 'parentId', 'notFound');
  }

  /** Queues each call's rows; each promise settles after the commit holding them. */
  private enqueue(calls: NewRecord[][]): Array<Promise<number[]>> {
    const promises = calls.map(
      (rows) => new Promise<number[]>((resolve, reject) => this.queue.push({ rows, resolve, reject })),
    );
    if (calls.length > 0 && !this.flushing) this.flushing = this.drain();
    return promises;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch: Pending[] = [];
        let size = 0;
        while (this.queue.length > 0) {
          const next = this.queue[0]!;
          if (batch.length > 0 && size + next.rows.length > BATCH_LIMIT) break;
          batch.push(this.queue.shift()!);
          size += next.rows.length;
        }
        await this.flush(batch);
      }
    } finally {
      this.flushing = null;
    }
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const rows = batch.flatMap((p) => p.rows);
      // up to CHUNK rows are one statement, atomic and committed on its own before it returns:
      // no BEGIN and COMMIT round trips around it
      const ids =
        rows.length <= CHUNK
          ? await insertRecords(this.db, rows)
          : await this.db.transaction(async (tx) => insertRecords(tx as unknown as Db, rows));
      this.stats.flushes += 1;
      this.stats.records += ids.length;
      let offset = 0;
      for (const p of batch) {
        p.resolve(ids.slice(offset, offset + p.rows.length));
        offset += p.rows.length;
      }
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // one poisoned call must not fail the others: retry them one by one
      this.log.warn({ err: error, calls: batch.length }, 'ingest batch failed, retrying calls one by one');
      for (const p of batch) await this.flush([p]);
    }
  }

  private async afterCommit(
    request: Omit<WriteRequest, 'records'>,
    rows: NewRecord[],
    ids: number[],
  ): Promise<void> {
    const byItem = new Map<number, Array<{ row: NewRecord; id: number }>>();
    rows.forEach((row, i) => {
      let list = byItem.get(row.itemId);
      if (!list) {
        list = [];
        byItem.set(row.itemId, list);
      }
      list.push({ row, id: ids[i]! });
    });
    if (this.live) {
      for (const [itemId, list] of byItem) {
        this.live.publish({
          companyId: request.companyId,
          itemId,
          records: list.map(({ row, id }) => ({
            id,
            ts: row.ts.toISOString(),
            values: row.values,
            source: row.source,
          })),
        });
      }
    }
    for (const hook of this.commitHooks) {
      try {
        await hook(request.companyId, byItem);
      } catch (error) {
        this.log.error({ err: error }, 'after-commit hook failed');
      }
    }
    const depth = request.depth ?? 0;
    if (depth >= MAX_JUMP_DEPTH) return;
    try {
      await runJumps(this, request, byItem, depth);
    } catch (error) {
      // the records are committed; a failing association is logged, not the caller's error
      this.log.error({ err: error }, 'jump association failed');
    }
  }

  logJumpFailure(jumpId: number, error: unknown): void {
    this.log.warn({ err: error, jumpId }, 'jump association skipped: the target refused its output');
  }

  /** Waits for the write in flight; later writes still work (used on close). */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  close(): void {
    pipelines.delete(this);
  }
}

function recordError(
  index: number,
  itemId: number,
  field: string,
  key: ErrorKey,
  params: Record<string, string | number> = { field },
): AppError {
  const all = { field, ...params };
  return new AppError(key, all, { index, itemId, field, message: messageFor(key, 'en', all) });
}

/** The error's `data.message` in the caller's language (the pipeline does not know it). */
export function localizeRecordError(error: AppError, lang: Lang): AppError {
  const data = error.data as { index?: number; field?: string } | null;
  if (!data || typeof data.index !== 'number') return error;
  return new AppError(error.key, error.params, {
    ...data,
    message: messageFor(error.key, lang, error.params),
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the write pipeline every record source uses */
    ingest: IngestPipeline;
  }
}
