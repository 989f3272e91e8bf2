/**
 * Configuration screens (docs/configuration-screens.md): a device's screen, its bindable points
 * and commands, the editing lease and the latest values of the bound points. The routes check
 * the device level (devices/access.ts) before calling in here.
 *
 * A point is bindable when the caller can read its item and the device feeds it: a number field
 * of a kind-13 item that the configuration the gateway runs fills (deviceviews/points.ts), or of
 * a kind-13 item whose data sources name the gateway (telemetry as JSON). A switch sends only a
 * command node of the configuration the gateway runs, triggered from the platform's
 * `down/command` (docs/gateway-config.md), so a screen never carries bytes of its own.
 */
import { randomBytes } from 'node:crypto';
import {
  bindingPaths,
  checkScreenBody,
  DATA_PERMISSION,
  type GatewayConfig,
  NUMERIC_FIELD_TYPES,
  type RecordValues,
  type ScreenBody,
  screenBindings,
  screenCommands,
} from '@platform/domain';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { appliedConfig, pointsOf } from '../deviceviews/points';
import { visibleValues } from '../records/service';
import { dataRecords } from '../records/tables';
import { users } from '../users/tables';
import { configScreenLeases, configScreens } from './tables';

/** an editor renews its lease about every 20 s; one unrenewed this long is free to take */
export const LEASE_SECONDS = 60;

export interface ScreenDevice {
  id: number;
  serialNumber: string;
  name: string;
  online: boolean;
  level: number;
}

export interface BindablePoint {
  itemId: number;
  itemName: string;
  field: string;
  fieldName: string;
  unit: string | null;
  decimals: number | null;
}

/** The number fields of kind-13 items the device feeds that the caller can read. */
export async function bindablePoints(
  db: Db,
  caller: DataCaller,
  device: ScreenDevice,
): Promise<BindablePoint[]> {
  const out = new Map<string, BindablePoint>();
  const applied = await appliedConfig(db, caller.companyId, device.id);
  const fed = applied ? (await pointsOf(db, caller, applied.config)).points : [];
  const decimalsOf = new Map<string, number | null>();
  const sourced = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, name: dataItems.name, fields: dataItems.fields })
    .from(dataItems)
    .where(
      and(
        eq(dataItems.companyId, caller.companyId),
        eq(dataItems.kind, 13),
        sql`${dataItems.sources} @> ${JSON.stringify([{ deviceId: device.serialNumber }])}::jsonb`,
      ),
    );
  const levels = sourced.length
    ? await levelsFor(
        db,
        caller,
        sourced.map((i) => i.nodeId),
      )
    : new Map<number, number>();
  const fedItems = fed.length
    ? await db
        .select({ id: dataItems.id, fields: dataItems.fields })
        .from(dataItems)
        .where(
          and(
            eq(dataItems.companyId, caller.companyId),
            inArray(dataItems.id, [...new Set(fed.map((p) => p.itemId))]),
          ),
        )
    : [];
  for (const item of fedItems)
    for (const f of item.fields) decimalsOf.set(`${item.id}:${f.key}`, f.decimals ?? null);
  for (const p of fed) {
    if (!p.numeric) continue;
    out.set(p.key, {
      itemId: p.itemId,
      itemName: p.itemName,
      field: p.fieldKey,
      fieldName: p.fieldName,
      unit: p.unit,
      decimals: decimalsOf.get(p.key) ?? null,
    });
  }
  for (const item of sourced) {
    if ((levels.get(item.nodeId) ?? DATA_PERMISSION.none) < DATA_PERMISSION.read) continue;
    for (const f of item.fields) {
      const key = `${item.id}:${f.key}`;
      if (!NUMERIC_FIELD_TYPES.includes(f.type) || out.has(key)) continue;
      out.set(key, {
        itemId: item.id,
        itemName: item.name,
        field: f.key,
        fieldName: f.name,
        unit: f.unit ? f.unit : null,
        decimals: f.decimals ?? null,
      });
    }
  }
  return [...out.values()];
}

/** Names of the command nodes the platform can trigger (linked from an MQTT subscribe on `down/command`). */
export function platformCommands(config: GatewayConfig | null): string[] {
  if (!config) return [];
  const byId = new Map(config.nodes.map((n) => [n.id, n]));
  const names = new Set<string>();
  for (const link of config.links) {
    const from = byId.get(link.from);
    const to = byId.get(link.to);
    if (from?.type === 'mqttSubscribe' && from.settings.target === 'platform' && to?.type === 'command')
      names.add(to.settings.name);
  }
  return [...names];
}

export async function deviceCommands(db: Db, companyId: number, gatewayId: number): Promise<string[]> {
  return platformCommands((await appliedConfig(db, companyId, gatewayId))?.config ?? null);
}

export interface LeaseView {
  holder: { id: number; name: string };
  expiresAt: string;
  mine: boolean;
}

async function leaseRow(db: Db, companyId: number, gatewayId: number) {
  const [row] = await db
    .select({ lease: configScreenLeases, userName: users.userName })
    .from(configScreenLeases)
    .innerJoin(users, eq(users.id, configScreenLeases.userId))
    .where(and(eq(configScreenLeases.companyId, companyId), eq(configScreenLeases.gatewayId, gatewayId)));
  return row ?? null;
}

/** The live lease of a screen as the caller may see it (never its id), or null. */
export async function currentLease(db: Db, caller: DataCaller, gatewayId: number, now = new Date()) {
  const row = await leaseRow(db, caller.companyId, gatewayId);
  if (!row || row.lease.expiresAt <= now) return null;
  return {
    holder: { id: row.lease.userId, name: row.userName },
    expiresAt: row.lease.expiresAt.toISOString(),
    mine: row.lease.userId === caller.userId,
  } satisfies LeaseView;
}

function heldError(holder: string, expiresAt: Date): AppError {
  return new AppError(
    'screenLeaseHeld',
    { user: holder, until: expiresAt.toISOString() },
    { field: 'lease', holder, expiresAt: expiresAt.toISOString() },
  );
}

/**
 * Takes the editing lease (no `leaseId`) or renews the caller's (`leaseId`). Taking succeeds when
 * nobody holds it, the holder let it expire, or the holder is the caller (a reloaded editor: the
 * old window's lease ends). Renewing succeeds while the lease is still that window's, even past
 * its expiry when nobody took it since.
 */
export async function takeLease(
  db: Db,
  caller: DataCaller,
  gatewayId: number,
  leaseId: string | null,
  now = new Date(),
): Promise<{ leaseId: string; expiresAt: string }> {
  const expiresAt = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const scope = and(
    eq(configScreenLeases.companyId, caller.companyId),
    eq(configScreenLeases.gatewayId, gatewayId),
  );
  if (leaseId !== null) {
    const [renewed] = await db
      .update(configScreenLeases)
      .set({ expiresAt })
      .where(
        and(scope, eq(configScreenLeases.leaseId, leaseId), eq(configScreenLeases.userId, caller.userId)),
      )
      .returning({ leaseId: configScreenLeases.leaseId });
    if (!renewed) throw new AppError('screenLeaseLost', {}, { field: 'leaseId' });
    return { leaseId, expiresAt: expiresAt.toISOString() };
  }
  const fresh = randomBytes(16).toString('hex');
  // one statement: of two editors asking at once exactly one gets it
  const [taken] = await db
    .insert(configScreenLeases)
    .values({
      companyId: caller.companyId,
      gatewayId,
      leaseId: fresh,
      userId: caller.userId,
      acquiredAt: now,
      expiresAt,
    })
    .onConflictDoUpdate({
      target: [configScreenLeases.companyId, configScreenLeases.gatewayId],
      set: { leaseId: fresh, userId: caller.userId, acquiredAt: now, expiresAt },
      setWhere: or(lt(configScreenLeases.expiresAt, now), eq(configScreenLeases.userId, caller.userId)),
    })
    .returning({ leaseId: configScreenLeases.leaseId });
  if (taken?.leaseId === fresh) return { leaseId: fresh, expiresAt: expiresAt.toISOString() };
  const held = await leaseRow(db, caller.companyId, gatewayId);
  throw heldError(held?.userName ?? '?', held?.lease.expiresAt ?? expiresAt);
}

/** Ends the caller's lease (closing the editor); nothing when it is no longer theirs. */
export async function releaseLease(
  db: Db,
  caller: DataCaller,
  gatewayId: number,
  leaseId: string,
): Promise<void> {
  await db
    .delete(configScreenLeases)
    .where(
      and(
        eq(configScreenLeases.companyId, caller.companyId),
        eq(configScreenLeases.gatewayId, gatewayId),
        eq(configScreenLeases.leaseId, leaseId),
        eq(configScreenLeases.userId, caller.userId),
      ),
    );
}

export interface ScreenRecord {
  body: ScreenBody;
  version: number;
  updatedAt: string;
  updatedBy: { id: number; name: string } | null;
}

export async function readScreen(db: Db, companyId: number, gatewayId: number): Promise<ScreenRecord | null> {
  const [row] = await db
    .select({ screen: configScreens, userName: users.userName })
    .from(configScreens)
    .leftJoin(users, eq(users.id, configScreens.updatedBy))
    .where(and(eq(configScreens.companyId, companyId), eq(configScreens.gatewayId, gatewayId)));
  if (!row) return null;
  const checked = checkScreenBody(row.screen.body);
  return {
    body: checked.ok ? checked.body : { ...row.screen.body, elements: [] },
    version: row.screen.version,
    updatedAt: row.screen.updatedAt.toISOString(),
    updatedBy:
      row.screen.updatedBy !== null
        ? { id: row.screen.updatedBy, name: row.userName ?? String(row.screen.updatedBy) }
        : null,
  };
}

/**
 * Checks a body for the device: the domain check (naming the broken field under `body.`), each
 * binding a bindable point, each switch command one of the device's. Throws the first problem.
 */
export async function checkForDevice(
  db: Db,
  caller: DataCaller,
  device: ScreenDevice,
  raw: unknown,
): Promise<ScreenBody> {
  const checked = checkScreenBody(raw);
  if (!checked.ok) {
    const path = checked.field === 'body' ? 'body' : `body.${checked.field.replace(/^body\./, '')}`;
    throw new AppError('screenInvalid', { field: path, reason: checked.reason }, { field: path });
  }
  const body = checked.body;
  if (screenBindings(body).length > 0) {
    const points = new Set((await bindablePoints(db, caller, device)).map((p) => `${p.itemId}:${p.field}`));
    for (const { path, binding } of bindingPaths(body)) {
      if (!points.has(`${binding.itemId}:${binding.field}`)) {
        const field = `body.${path}`;
        throw new AppError(
          'screenPointUnknown',
          { field, itemId: binding.itemId, key: binding.field },
          { field },
        );
      }
    }
  }
  const wanted = screenCommands(body);
  if (wanted.length > 0) {
    const known = new Set(await deviceCommands(db, caller.companyId, device.id));
    for (const { path, name } of wanted) {
      if (!known.has(name)) {
        const field = `body.${path}`;
        throw new AppError('screenCommandUnknown', { field, name }, { field });
      }
    }
  }
  return body;
}

/** Saves the screen under the caller's lease (held, not taken by another since): one transaction. */
export async function saveScreen(
  db: Db,
  caller: DataCaller,
  device: ScreenDevice,
  leaseId: string,
  raw: unknown,
  now = new Date(),
): Promise<ScreenRecord> {
  const body = await checkForDevice(db, caller, device, raw);
  await db.transaction(async (tx) => {
    const [lease] = await tx
      .select()
      .from(configScreenLeases)
      .where(
        and(eq(configScreenLeases.companyId, caller.companyId), eq(configScreenLeases.gatewayId, device.id)),
      )
      .for('update');
    if (!lease || lease.leaseId !== leaseId || lease.userId !== caller.userId)
      throw new AppError('screenLeaseLost', {}, { field: 'leaseId' });
    // saving is editing: the lease runs on from now
    await tx
      .update(configScreenLeases)
      .set({ expiresAt: new Date(now.getTime() + LEASE_SECONDS * 1000) })
      .where(
        and(eq(configScreenLeases.companyId, caller.companyId), eq(configScreenLeases.gatewayId, device.id)),
      );
    await tx
      .insert(configScreens)
      .values({
        companyId: caller.companyId,
        gatewayId: device.id,
        body,
        elementCount: body.elements.length,
        updatedBy: caller.userId,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [configScreens.companyId, configScreens.gatewayId],
        set: {
          body,
          elementCount: body.elements.length,
          version: sql`${configScreens.version} + 1`,
          updatedBy: caller.userId,
          updatedAt: now,
        },
      });
  });
  return (await readScreen(db, caller.companyId, device.id))!;
}

/** Deletes the screen, unless someone else is editing it (their lease is live). */
export async function deleteScreen(
  db: Db,
  caller: DataCaller,
  gatewayId: number,
  now = new Date(),
): Promise<void> {
  const lease = await leaseRow(db, caller.companyId, gatewayId);
  if (lease && lease.lease.expiresAt > now && lease.lease.userId !== caller.userId)
    throw heldError(lease.userName, lease.lease.expiresAt);
  const scope = (t: typeof configScreens | typeof configScreenLeases) =>
    and(eq(t.companyId, caller.companyId), eq(t.gatewayId, gatewayId));
  const deleted = await db
    .delete(configScreens)
    .where(scope(configScreens))
    .returning({ id: configScreens.id });
  if (deleted.length === 0) throw new AppError('screenNotFound', {}, { field: 'id' });
  await db.delete(configScreenLeases).where(scope(configScreenLeases));
}

export interface PointValue {
  itemId: number;
  field: string;
  value: unknown;
  ts: string | null;
}

const pointKey = (p: { itemId: number; field: string }) => `${p.itemId}\u0000${p.field}`;

/**
 * For each point, the newest top-level record of its item that has a value for its field, in one
 * query: a lateral subquery per point walks the (item_id, ts) index backwards to its first
 * match, as one query per point did. Points without such a record are absent from the answer.
 */
async function newestOfPoints(
  db: Db,
  companyId: number,
  points: ReadonlyArray<{ itemId: number; field: string }>,
): Promise<Map<string, { ts: Date; values: RecordValues }>> {
  if (points.length === 0) return new Map();
  const wanted = sql`(VALUES ${sql.join(
    points.map((p) => sql`(${p.itemId}::integer, ${p.field}::text)`),
    sql`, `,
  )}) AS wanted(point_item, point_field)`;
  const newest = db
    .select({ ts: dataRecords.ts, values: dataRecords.values })
    .from(dataRecords)
    .where(
      and(
        eq(dataRecords.companyId, companyId),
        sql`${dataRecords.itemId} = wanted.point_item`,
        isNull(dataRecords.parentId),
        sql`${dataRecords.values} ->> wanted.point_field IS NOT NULL`,
      ),
    )
    .orderBy(desc(dataRecords.ts), desc(dataRecords.id))
    .limit(1)
    .as('newest');
  const rows = await db
    .select({
      itemId: sql<number>`wanted.point_item`,
      field: sql<string>`wanted.point_field`,
      ts: newest.ts,
      values: newest.values,
    })
    .from(wanted)
    .crossJoinLateral(newest);
  return new Map(rows.map((r) => [pointKey(r), { ts: r.ts, values: r.values }]));
}

/**
 * The newest value of each bound point whose item the caller can read: the newest record of
 * the item that has a value for the field (null value and ts when there is none). Points of
 * items the caller cannot read are left out and counted.
 */
export async function screenValues(
  db: Db,
  caller: DataCaller,
  body: ScreenBody,
): Promise<{ values: PointValue[]; hidden: number }> {
  const bindings = screenBindings(body);
  const itemIds = [...new Set(bindings.map((b) => b.itemId))];
  if (itemIds.length === 0) return { values: [], hidden: 0 };
  const items = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, fields: dataItems.fields })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, itemIds)));
  const levels = await levelsFor(
    db,
    caller,
    items.map((i) => i.nodeId),
  );
  const readable = new Map(
    items
      .filter((i) => (levels.get(i.nodeId) ?? DATA_PERMISSION.none) >= DATA_PERMISSION.read)
      .map((i) => [i.id, i]),
  );
  const shown = bindings.filter((b) => readable.has(b.itemId));
  const newest = await newestOfPoints(db, caller.companyId, shown);
  const values: PointValue[] = [];
  let hidden = 0;
  for (const b of bindings) {
    const item = readable.get(b.itemId);
    if (!item) {
      hidden += 1;
      continue;
    }
    const row = newest.get(pointKey(b));
    const visible = row ? visibleValues(row.values, item.fields) : {};
    values.push({
      itemId: b.itemId,
      field: b.field,
      value: row && b.field in visible ? (visible[b.field] ?? null) : null,
      ts: row && b.field in visible ? row.ts.toISOString() : null,
    });
  }
  return { values, hidden };
}

export interface LiveValues {
  /** the server's clock: ages are worked out against it */
  at: string;
  online: boolean;
  staleSeconds: number;
  values: PointValue[];
  hidden: number;
}

/**
 * What a live page (a screen, a flow chart) asks for: the newest value of each point `body`
 * binds that the caller can read, with the server's clock, whether the device is online and
 * when values go stale. No body: no values.
 */
export async function liveValues(
  db: Db,
  caller: DataCaller,
  device: { online: boolean },
  body: ScreenBody | null,
): Promise<LiveValues> {
  const { values, hidden } = body ? await screenValues(db, caller, body) : { values: [], hidden: 0 };
  return {
    at: new Date().toISOString(),
    online: device.online,
    staleSeconds: body?.staleSeconds ?? 60,
    values,
    hidden,
  };
}
