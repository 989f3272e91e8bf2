/**
 * JSON telemetry (`up/telemetry`): the body of HTTP submission (docs/submission.md), written
 * through the one ingest pipeline (the same checks, jumps, live updates) with the source
 * `gateway`. A gateway writes only into data items of the company that bound it whose data
 * sources name its serial number, the rule of a device key; all or nothing per message.
 *
 * There is no answer topic: each gateway's messages stored, refused (with the last refusal and
 * the field it names, for the device page) and dropped while unbound are counted. The counts
 * are added up in memory and written at most once a second per gateway, so a gateway sending
 * garbage in a loop costs one small update a second, not one per message.
 */
import { messageFor, type RecordValues } from '@platform/domain';
import { eq, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { UpMessage } from '../gateways/hub';
import { gateways, type TelemetryRefusal } from '../gateways/tables';
import { parseSubmission } from '../ingest/submit';

export const COUNT_FLUSH_MS = 1_000;

interface Pending {
  ok: number;
  refused: number;
  dropped: number;
  at: Date | null;
  lastRefusal: TelemetryRefusal | null;
}

/** The refusal as the device page shows it (the catalogue's text in Chinese, with its code and field). */
function refusalOf(error: unknown, at: Date): TelemetryRefusal {
  if (error instanceof AppError) {
    const data = (error.data ?? {}) as { field?: unknown; index?: unknown; itemId?: unknown };
    return {
      at: at.toISOString(),
      code: error.code,
      message: messageFor(error.key, 'zh', error.params),
      field: typeof data.field === 'string' ? data.field : null,
      index: typeof data.index === 'number' ? data.index : null,
      itemId: typeof data.itemId === 'number' ? data.itemId : null,
      key: error.key,
      params: error.params,
    };
  }
  return {
    at: at.toISOString(),
    code: 50000,
    message: messageFor('internal', 'zh'),
    field: null,
    index: null,
    itemId: null,
  };
}

export class Telemetry {
  readonly #pending = new Map<number, Pending>();
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly app: App) {}

  attach(): void {
    this.app.gateways.onUp('telemetry', (message) => this.handle(message));
    this.app.addHook('onClose', async () => {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
      await this.flush();
    });
  }

  #count(gatewayId: number, change: (p: Pending) => void): void {
    let pending = this.#pending.get(gatewayId);
    if (!pending) {
      pending = { ok: 0, refused: 0, dropped: 0, at: null, lastRefusal: null };
      this.#pending.set(gatewayId, pending);
    }
    change(pending);
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, COUNT_FLUSH_MS);
  }

  /** Writes the counts added up since the last flush. */
  async flush(): Promise<void> {
    const batch = [...this.#pending];
    this.#pending.clear();
    for (const [gatewayId, p] of batch) {
      await this.app.db
        .update(gateways)
        .set({
          telemetryOk: sql`${gateways.telemetryOk} + ${p.ok}`,
          telemetryRefused: sql`${gateways.telemetryRefused} + ${p.refused}`,
          telemetryDropped: sql`${gateways.telemetryDropped} + ${p.dropped}`,
          ...(p.at ? { telemetryAt: p.at } : {}),
          ...(p.lastRefusal ? { lastRefusal: p.lastRefusal } : {}),
        })
        .where(eq(gateways.id, gatewayId))
        .catch((error: unknown) => this.app.log.warn({ err: error }, 'could not record telemetry counts'));
    }
  }

  async handle(message: UpMessage): Promise<void> {
    const { gateway, receivedAt } = message;
    const companyId = gateway.companyId;
    if (companyId === null) {
      this.#count(gateway.id, (p) => {
        p.dropped += 1;
      });
      return;
    }
    try {
      const records = parseSubmission(message.payload);
      const defs = await this.app.ingest.itemDefs(records.map((r) => r.itemId));
      for (const [index, record] of records.entries()) {
        const item = defs.get(record.itemId);
        const fail = (key: 'notFound' | 'forbidden') =>
          new AppError(key, {}, { index, itemId: record.itemId, field: 'itemId' });
        if (!item || item.companyId !== companyId) throw fail('notFound');
        if (!item.sources.some((s) => s.deviceId === gateway.serialNumber)) throw fail('forbidden');
      }
      await this.app.ingest.write({ companyId, userId: null, source: 'gateway', records });
      // each record on the device's live flow, as a frame's are (device views, screens)
      const at = new Date().toISOString();
      for (const record of records) {
        const ts = new Date(record.ts ?? at);
        // the pipeline took the time as written; one Date cannot read is left off the flow
        if (Number.isNaN(ts.getTime())) continue;
        this.app.live.publishDevice({
          type: 'flow',
          companyId,
          gatewayId: gateway.id,
          flow: {
            kind: 'record',
            at,
            itemId: record.itemId,
            ts: ts.toISOString(),
            values: record.values as RecordValues,
          },
        });
      }
      this.#count(gateway.id, (p) => {
        p.ok += 1;
        p.at = receivedAt;
      });
    } catch (error) {
      if (!(error instanceof AppError)) this.app.log.error({ err: error }, 'gateway telemetry failed');
      this.#count(gateway.id, (p) => {
        p.refused += 1;
        p.at = receivedAt;
        p.lastRefusal = refusalOf(error, receivedAt);
      });
    }
  }
}
