/**
 * Online, offline and what a gateway says about itself (docs/device-protocol.md, "Status"):
 *
 * - `up/status` with `online: true` is the birth message: online, its online time, and the
 *   facts it carries (model, firmware, ICCID, configuration version and hash, port health,
 *   session); later status messages merge only what they carry. Any status message but an
 *   offline one also means the gateway is connected.
 * - `{"online": false}` is the last will or a polite goodbye: offline with its offline time,
 *   unless it names a session other than the current one (the will of a connection that a
 *   newer one replaced), or (embedded broker) the gateway is still connected: its connection
 *   ending will say so.
 * - the embedded broker tells when a gateway's last connection ends, will or not.
 * - when the embedded broker starts, nobody is connected to it: every gateway is offline.
 *
 * The database holds the truth for every server node. Each change is told to the gateway's
 * state listeners (app.gateways.onState) and, when it concerns what a device page shows, to
 * the company's live device channel.
 */
import { isSerialNumber, readPorts } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import type { DeviceState } from '../../platform/live';
import type { UpMessage } from './hub';
import { statusOf } from './registry';
import { type GatewayRow, gateways } from './tables';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function deviceStateOf(row: GatewayRow): DeviceState {
  return {
    id: row.id,
    online: row.online,
    status: statusOf(row),
    onlineAt: iso(row.onlineAt),
    offlineAt: iso(row.offlineAt),
    lastSeenAt: iso(row.lastSeenAt),
    firmware: row.firmware,
    ports: row.ports ?? [],
  };
}

const SHORT_TEXT = /^[\x20-\x7e]{1,32}$/;
const SESSION = /^[A-Za-z0-9_-]{1,64}$/;
const HASH = /^[0-9a-fA-F]{64}$/;

/** The facts of a status message worth keeping; malformed ones are left out, not the message. */
export function statusFacts(payload: Record<string, unknown>): Partial<GatewayRow> {
  const facts: Partial<GatewayRow> = {};
  const text = (value: unknown) => (typeof value === 'string' && SHORT_TEXT.test(value) ? value : undefined);
  const model = text(payload.model);
  if (model) facts.model = model;
  const firmware = text(payload.firmware);
  if (firmware) facts.firmware = firmware;
  if (typeof payload.iccid === 'string' && /^[0-9A-Fa-f]{18,22}$/.test(payload.iccid))
    facts.iccid = payload.iccid.toUpperCase();
  const version = payload.configVersion;
  if (Number.isSafeInteger(version) && (version as number) >= 0 && (version as number) <= 2 ** 31 - 1)
    facts.configVersion = version as number;
  if (typeof payload.configHash === 'string' && HASH.test(payload.configHash))
    facts.configHash = payload.configHash.toLowerCase();
  const ports = readPorts(payload.ports);
  if (ports) facts.ports = ports;
  return facts;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether what a device page shows of the gateway changed. */
function visibleChange(before: GatewayRow, after: GatewayRow): boolean {
  return (
    before.online !== after.online ||
    before.firmware !== after.firmware ||
    statusOf(before) !== statusOf(after) ||
    !sameJson(before.ports, after.ports)
  );
}

/** The embedded broker is about to start: no gateway is connected to it yet. */
export async function markAllOffline(db: Db): Promise<void> {
  const now = new Date();
  await db
    .update(gateways)
    .set({ online: false, offlineAt: now, statusAt: now })
    .where(eq(gateways.online, true));
}

export class Presence {
  constructor(private readonly app: App) {}

  /** Registers the status handler and the embedded broker's client-gone hook. */
  attach(): void {
    this.app.gateways.onUp('status', (message) => this.status(message));
    this.app.mqtt?.onClientGone((principal) => {
      if (principal.kind !== 'gateway' || !isSerialNumber(principal.username)) return;
      const sn = principal.username;
      void this.app.gateways.run(sn, () => this.offline(sn, new Date(), null, true));
    });
  }

  async #row(sn: string): Promise<GatewayRow | null> {
    const [row] = await this.app.db.select().from(gateways).where(eq(gateways.serialNumber, sn));
    return row ?? null;
  }

  async #save(before: GatewayRow, changes: Partial<GatewayRow>): Promise<void> {
    const [after] = await this.app.db
      .update(gateways)
      .set(changes)
      .where(eq(gateways.id, before.id))
      .returning();
    if (!after) return;
    await this.app.gateways.emitState({ before, after });
    if (after.companyId !== null && visibleChange(before, after)) {
      this.app.live.publishDevice({
        type: 'device',
        companyId: after.companyId,
        gatewayId: after.id,
        state: deviceStateOf(after),
      });
    }
  }

  async status(message: UpMessage): Promise<void> {
    const payload = message.payload as Record<string, unknown>;
    const session =
      typeof payload.session === 'string' && SESSION.test(payload.session) ? payload.session : null;
    if (payload.online === false) {
      await this.offline(message.gateway.serialNumber, message.receivedAt, session, false);
      return;
    }
    const before = await this.#row(message.gateway.serialNumber);
    if (!before) return;
    const now = message.receivedAt;
    const changes: Partial<GatewayRow> = { ...statusFacts(payload), lastSeenAt: now };
    if (payload.online === true) {
      changes.online = true;
      changes.onlineAt = now;
      changes.session = session;
    } else if (!before.online) {
      // a gateway that speaks is connected, birth message or not
      changes.online = true;
      changes.onlineAt = now;
    }
    const factsChanged = (
      ['model', 'firmware', 'iccid', 'configVersion', 'configHash', 'ports'] as const
    ).some((key) => key in changes && !sameJson(changes[key], before[key]));
    if (changes.online !== undefined || factsChanged) changes.statusAt = now;
    await this.#save(before, changes);
  }

  /**
   * Marks a gateway offline. `session`: the one its will or goodbye named; `gone`: the broker
   * saw its last connection end.
   */
  async offline(sn: string, at: Date, session: string | null, gone: boolean): Promise<void> {
    const before = await this.#row(sn);
    if (!before?.online) return;
    // the will of a replaced connection, or a goodbye of a gateway that is still connected
    if (session !== null && before.session !== null && session !== before.session) return;
    if (!gone && this.app.mqtt?.isConnected(sn) === true) return;
    await this.#save(before, { online: false, offlineAt: at, statusAt: at });
  }
}
