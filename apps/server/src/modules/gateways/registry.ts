/**
 * The gateway registry (system maintenance → gateways, code system_gateway): serial numbers
 * registered in batches, each with a secret shown once and kept as SHA-256 only; the list of
 * every company's gateways; replacing a secret; removing a mistyped registration.
 *
 * On Mosquitto with dynamic security (the server keeps the broker's accounts) a gateway's
 * account is created when its secret is made, the only moment the server holds it, and
 * deleted when the registration is removed; when the broker cannot take it, nothing changes.
 */
import { randomBytes } from 'node:crypto';
import {
  CATALOGUE,
  type ErrorKey,
  GATEWAY_SECRET_PREFIX,
  type GatewayStatus,
  gatewayAcl,
  gatewayStatus,
  type Lang,
  messageFor,
  normalizeSerialNumber,
} from '@platform/domain';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { sha256 } from '../../platform/tokens';
import { companies } from '../companies/tables';
import { bindRequests, devices } from '../devices/tables';
import { type GatewayRow, gateways, type TelemetryRefusal } from './tables';

export function newGatewaySecret(): string {
  return `${GATEWAY_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The status of a registry row (packages/domain gatewayStatus). */
export function statusOf(
  row: Pick<GatewayRow, 'boundAt' | 'online' | 'onlineAt' | 'offlineAt' | 'ports'>,
): GatewayStatus {
  return gatewayStatus({
    boundAt: row.boundAt?.getTime() ?? null,
    online: row.online,
    onlineAt: row.onlineAt?.getTime() ?? null,
    offlineAt: row.offlineAt?.getTime() ?? null,
    ports: row.ports ?? [],
  });
}

/**
 * The same rule in SQL, for filtering and sorting a registry of any size in the database
 * (registry.test.ts checks it against gatewayStatus row by row).
 */
export const STATUS_SQL = sql<GatewayStatus>`CASE
  WHEN ${gateways.boundAt} IS NULL THEN 'inactive'
  WHEN NOT (${gateways.online} OR coalesce(${gateways.onlineAt} >= ${gateways.boundAt}, false)
    OR coalesce(${gateways.offlineAt} >= ${gateways.boundAt}, false)) THEN 'inactive'
  WHEN NOT ${gateways.online} THEN 'abnormal'
  WHEN jsonb_path_exists(${gateways.ports}, '$[*] ? (@.ok == false)') THEN 'abnormal'
  ELSE 'running' END`;

export interface Registered {
  id: number;
  serialNumber: string;
  model: string;
  secret: string;
}

/** Checks a batch: each a serial number, none twice, none registered. Throws naming `serialNumbers[i]`. */
async function checkBatch(db: Db, typed: readonly string[]): Promise<string[]> {
  const sns: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, text] of typed.entries()) {
    const sn = normalizeSerialNumber(text);
    const field = `serialNumbers[${i}]`;
    if (!sn) throw new AppError('serialNumberInvalid', { field }, { field });
    if (seen.has(sn)) throw new AppError('serialNumberRepeated', { sn }, { field });
    seen.set(sn, i);
    sns.push(sn);
  }
  const taken = await db
    .select({ sn: gateways.serialNumber })
    .from(gateways)
    .where(inArray(gateways.serialNumber, sns));
  if (taken.length > 0) {
    const first = Math.min(...taken.map((t) => seen.get(t.sn)!));
    throw new AppError('serialNumberTaken', { sn: sns[first]! }, { field: `serialNumbers[${first}]` });
  }
  return sns;
}

export async function registerGateways(
  app: App,
  input: { serialNumbers: readonly string[]; model: string; userId: number | null },
): Promise<Registered[]> {
  const sns = await checkBatch(app.db, input.serialNumbers);
  const secrets = sns.map(() => newGatewaySecret());
  const rows = await app.db
    .insert(gateways)
    .values(
      sns.map((sn, i) => ({
        serialNumber: sn,
        model: input.model,
        secretHash: sha256(secrets[i]!),
        registeredBy: input.userId,
      })),
    )
    .returning({ id: gateways.id, serialNumber: gateways.serialNumber });
  const registered = rows.map((r, i) => ({
    id: r.id,
    serialNumber: r.serialNumber,
    model: input.model,
    secret: secrets[i]!,
  }));
  const accounts = app.mqtt?.accounts;
  if (accounts) {
    try {
      for (const g of registered)
        await accounts.put(
          { kind: 'gateway', username: g.serialNumber, acl: gatewayAcl(g.serialNumber) },
          g.secret,
        );
    } catch (error) {
      app.log.error({ err: error }, 'could not create the MQTT broker accounts of new gateways');
      await app.db.delete(gateways).where(
        inArray(
          gateways.id,
          registered.map((g) => g.id),
        ),
      );
      for (const g of registered) await accounts.remove(g.serialNumber).catch(() => undefined);
      throw new AppError('mqttBrokerUnavailableGateway');
    }
  }
  return registered;
}

async function registryRow(db: Db, id: number): Promise<GatewayRow> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, id));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

/**
 * A new secret for a gateway: the old one stops at once (its connections end through the
 * access epoch; on Mosquitto, deleting the old account disconnects it).
 */
export async function replaceSecret(app: App, id: number): Promise<Registered> {
  const row = await registryRow(app.db, id);
  const secret = newGatewaySecret();
  await app.db
    .update(gateways)
    .set({ secretHash: sha256(secret), secretSetAt: new Date() })
    .where(eq(gateways.id, id));
  const accounts = app.mqtt?.accounts;
  if (accounts) {
    try {
      await accounts.put(
        { kind: 'gateway', username: row.serialNumber, acl: gatewayAcl(row.serialNumber) },
        secret,
      );
    } catch (error) {
      app.log.error({ err: error }, 'could not replace the MQTT broker account of a gateway');
      await app.db
        .update(gateways)
        .set({ secretHash: row.secretHash, secretSetAt: row.secretSetAt })
        .where(eq(gateways.id, id));
      throw new AppError('mqttBrokerUnavailableGateway');
    }
  }
  app.gateways?.forget(row.serialNumber);
  return { id, serialNumber: row.serialNumber, model: row.model, secret };
}

/** Removes a registration that is not bound and never was (a mistyped serial number). */
export async function removeGateway(app: App, id: number): Promise<void> {
  const row = await registryRow(app.db, id);
  if (row.companyId !== null) throw new AppError('gatewayRemoveBound');
  const [history] = await app.db.select({ n: count() }).from(devices).where(eq(devices.gatewayId, id));
  if (Number(history?.n ?? 0) > 0) throw new AppError('gatewayRemoveHistory');
  await app.db.delete(gateways).where(and(eq(gateways.id, id), isNull(gateways.companyId)));
  app.gateways?.forget(row.serialNumber);
  await app.mqtt?.accounts
    ?.remove(row.serialNumber)
    // the account of a gateway the server no longer knows goes at the next reconcile anyway
    .catch((error) => app.log.warn({ err: error }, 'could not delete the MQTT broker account of a gateway'));
}

export interface RegistryQuery {
  keyword?: string;
  companyId?: number;
  bound?: boolean;
  online?: boolean;
  status?: GatewayStatus;
  sort?: 'serialNumber' | 'model' | 'registeredAt' | 'boundAt' | 'lastSeenAt';
  order?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function rowOut(row: GatewayRow, company: { id: number; name: string } | null) {
  return {
    id: row.id,
    serialNumber: row.serialNumber,
    model: row.model,
    firmware: row.firmware,
    company,
    online: row.online,
    status: statusOf(row),
    registeredAt: row.registeredAt.toISOString(),
    boundAt: iso(row.boundAt),
    lastSeenAt: iso(row.lastSeenAt),
    onlineAt: iso(row.onlineAt),
    offlineAt: iso(row.offlineAt),
  };
}

export type RegistryRowOut = ReturnType<typeof rowOut>;

export async function listRegistry(
  db: Db,
  query: RegistryQuery,
): Promise<{ list: RegistryRowOut[]; total: number }> {
  const keyword = query.keyword?.trim();
  const pattern = keyword ? likePattern(keyword) : null;
  const filters: Array<SQL | undefined> = [
    pattern
      ? or(
          ilike(gateways.serialNumber, pattern),
          ilike(gateways.model, pattern),
          ilike(companies.displayName, pattern),
        )
      : undefined,
    query.companyId !== undefined ? eq(gateways.companyId, query.companyId) : undefined,
    query.bound === true
      ? isNotNull(gateways.companyId)
      : query.bound === false
        ? isNull(gateways.companyId)
        : undefined,
    query.online !== undefined ? eq(gateways.online, query.online) : undefined,
    query.status ? sql`${STATUS_SQL} = ${query.status}` : undefined,
  ];
  const where = and(...filters);
  const column = {
    serialNumber: gateways.serialNumber,
    model: gateways.model,
    registeredAt: gateways.registeredAt,
    boundAt: gateways.boundAt,
    lastSeenAt: gateways.lastSeenAt,
  }[query.sort ?? 'registeredAt'];
  const direction =
    (query.order ?? (query.sort === 'serialNumber' || query.sort === 'model' ? 'asc' : 'desc')) === 'asc'
      ? asc
      : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select({ gateway: gateways, companyName: companies.displayName })
      .from(gateways)
      .leftJoin(companies, eq(companies.id, gateways.companyId))
      .where(where)
      .orderBy(sql`${direction(column)} NULLS LAST`, asc(gateways.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(gateways)
      .leftJoin(companies, eq(companies.id, gateways.companyId))
      .where(where),
  ]);
  return {
    list: rows.map((r) =>
      rowOut(
        r.gateway,
        r.gateway.companyId !== null && r.companyName !== null
          ? { id: r.gateway.companyId, name: r.companyName }
          : null,
      ),
    ),
    total: Number(total?.n ?? 0),
  };
}

export interface TelemetryCounts {
  ok: number;
  refused: number;
  dropped: number;
  lastAt: string | null;
  lastRefusal: TelemetryRefusal | null;
}

export function telemetryOf(row: GatewayRow, lang: Lang): TelemetryCounts {
  const refusal = row.lastRefusal ?? null;
  const key = refusal?.key;
  return {
    ok: row.telemetryOk,
    refused: row.telemetryRefused,
    dropped: row.telemetryDropped,
    lastAt: iso(row.telemetryAt),
    lastRefusal: refusal && {
      ...refusal,
      message: key && key in CATALOGUE ? messageFor(key as ErrorKey, lang, refusal.params) : refusal.message,
    },
  };
}

export async function registryDetail(db: Db, id: number, lang: Lang) {
  const [found] = await db
    .select({ gateway: gateways, companyName: companies.displayName })
    .from(gateways)
    .leftJoin(companies, eq(companies.id, gateways.companyId))
    .where(eq(gateways.id, id));
  if (!found) throw new AppError('notFound', {}, { field: 'id' });
  const row = found.gateway;
  const [pending] = await db
    .select({ companyName: companies.displayName, expiresAt: bindRequests.expiresAt })
    .from(bindRequests)
    .innerJoin(companies, eq(companies.id, bindRequests.companyId))
    .where(
      and(
        eq(bindRequests.gatewayId, id),
        eq(bindRequests.status, 'waiting'),
        sql`${bindRequests.expiresAt} > now()`,
      ),
    )
    .orderBy(desc(bindRequests.createdAt))
    .limit(1);
  return {
    ...rowOut(
      row,
      row.companyId !== null && found.companyName !== null
        ? { id: row.companyId, name: found.companyName }
        : null,
    ),
    iccid: row.iccid,
    configVersion: row.configVersion,
    configHash: row.configHash,
    ports: row.ports ?? [],
    secretSetAt: row.secretSetAt.toISOString(),
    pendingBind: pending
      ? { companyName: pending.companyName, expiresAt: pending.expiresAt.toISOString() }
      : null,
    telemetry: telemetryOf(row, lang),
  };
}
