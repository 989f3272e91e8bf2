/**
 * Device views (docs/devices.md, "Device views"): a device's points charted over time
 * (`/dtuChart/{deviceId}`) and its configuration drawn with live data moving through it
 * (`/dataflow/…`). Every route needs dm_list (or cd_device, as the device list), the device
 * bound to the caller's company and readable by the caller (requireDeviceLevel), and for each
 * point the caller's read permission on its item: a point of an item the caller cannot read is
 * neither listed nor charted. The live part rides on the device live socket (`watch`).
 */
import { DATA_PERMISSION, type GatewayConfig } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { Envelope, Id } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { requireDeviceLevel } from '../devices/access';
import { DEVICE_CODES } from '../devices/schemas';
import { frameStatsOf } from '../packets/frame-stats';
import { appliedConfig, type DevicePoint, pointsOf } from './points';
import { bucketWidthS, MAX_RANGE_DAYS, MAX_SERIES_POINTS, seriesOf } from './series';

const BASE = '/devicemanagement/device';
const POINT_KEY = /^(\d{1,10}):([A-Za-z0-9_]{1,16})$/;
const DAY_MS = 86_400_000;

const Source = Type.Object({
  name: Type.String(),
  packetId: Type.Union([Type.Integer(), Type.Null()]),
  port: Type.Union([Type.Integer(), Type.Null()]),
  nodeId: Type.String(),
});

const Point = Type.Object({
  key: Type.String(),
  itemId: Type.Integer(),
  itemName: Type.String(),
  fieldKey: Type.String(),
  fieldName: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  fieldType: Type.Integer(),
  numeric: Type.Boolean(),
  sources: Type.Array(Source),
});

const DeviceHead = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serialNumber: Type.String(),
  online: Type.Boolean(),
});

/** The ISO instant of a query field, or the field's error. */
function instant(field: string, text: string): Date {
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(date.getTime())) throw fieldError(field);
  return date;
}

/** The `points` query text: a JSON array of 1…MAX_SERIES_POINTS point keys, each one of `known`. */
function chosenPoints(text: string, known: DevicePoint[]): DevicePoint[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError('points');
  }
  if (!Array.isArray(value)) throw fieldError('points');
  const keys = [...new Set(value)];
  if (keys.length === 0 || keys.length > MAX_SERIES_POINTS)
    throw new AppError('seriesTooManyPoints', { max: MAX_SERIES_POINTS }, { field: 'points' });
  const byKey = new Map(known.map((p) => [p.key, p]));
  return keys.map((key) => {
    if (typeof key !== 'string' || !POINT_KEY.test(key)) throw fieldError('points');
    const point = byKey.get(key);
    // a point of an item the caller cannot read answers as one that does not exist
    if (!point?.numeric) throw new AppError('seriesPointUnknown', { point: key }, { field: 'points' });
    return point;
  });
}

export default async function deviceViewRoutes(app: App): Promise<void> {
  app.get(
    `${BASE}/points`,
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          "The device's data points: each item field its running configuration feeds that the caller may read",
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              device: DeviceHead,
              version: Type.Union([Type.Integer(), Type.Null()]),
              points: Type.Array(Point),
              hidden: Type.Integer({ description: 'points of items the caller cannot read, left out' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const applied = await appliedConfig(app.db, device.companyId, device.id);
      const { points, hidden } = applied
        ? await pointsOf(app.db, dataCaller(request), applied.config)
        : { points: [], hidden: 0 };
      return ok({
        device: {
          id: device.id,
          name: device.name,
          serialNumber: device.serialNumber,
          online: device.online,
        },
        version: applied?.version ?? null,
        points,
        hidden,
      });
    },
  );

  app.get(
    `${BASE}/series`,
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: `Points of the device over [from, to), bucketed (average, minimum, maximum, count): at most ${MAX_SERIES_POINTS} points and ${MAX_RANGE_DAYS} days`,
        querystring: Type.Object({
          id: Id,
          points: Type.String({ maxLength: 2000, description: 'JSON array of point keys "itemId:fieldKey"' }),
          from: Type.String({ maxLength: 40, description: 'ISO instant' }),
          to: Type.String({ maxLength: 40, description: 'ISO instant' }),
        }),
        response: {
          200: Envelope(
            Type.Object({
              from: Type.String(),
              to: Type.String(),
              bucketS: Type.Integer(),
              series: Type.Array(
                Type.Object({
                  key: Type.String(),
                  buckets: Type.Array(Type.Array(Type.Number()), {
                    description: '[bucket start ms, average, minimum, maximum, count]',
                  }),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const from = instant('from', q.from);
      const to = instant('to', q.to);
      if (to.getTime() <= from.getTime()) throw new AppError('timeRangeInvalid', {}, { field: 'to' });
      if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
        throw new AppError('seriesRangeTooLong', { days: MAX_RANGE_DAYS }, { field: 'to' });
      const device = await requireDeviceLevel(app, request, q.id, DATA_PERMISSION.read);
      const applied = await appliedConfig(app.db, device.companyId, device.id);
      const known = applied ? (await pointsOf(app.db, dataCaller(request), applied.config)).points : [];
      const chosen = chosenPoints(q.points, known);
      const bucketS = bucketWidthS(from, to);
      const series = [];
      for (const point of chosen) {
        const buckets = await seriesOf(
          app.db,
          device.companyId,
          point.itemId,
          point.fieldKey,
          from,
          to,
          bucketS,
        );
        series.push({ key: point.key, buckets });
      }
      return ok({ from: from.toISOString(), to: to.toISOString(), bucketS, series });
    },
  );

  app.get(
    `${BASE}/flow`,
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          "The configuration the device runs, as the data-flow view draws it, with its points and each port's frame counters",
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              device: DeviceHead,
              version: Type.Union([Type.Integer(), Type.Null()]),
              config: Type.Union([Type.Unknown(), Type.Null()]),
              points: Type.Array(Point),
              hidden: Type.Integer(),
              ports: Type.Array(
                Type.Object({
                  port: Type.Integer(),
                  stored: Type.Integer(),
                  bad: Type.Integer({ description: 'frames refused: bad CRC, wrong length, bad answer, …' }),
                  badCrc: Type.Integer(),
                  wrongLength: Type.Integer(),
                  lastFrameAt: Type.Union([Type.String(), Type.Null()]),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const applied = await appliedConfig(app.db, device.companyId, device.id);
      const { points, hidden } = applied
        ? await pointsOf(app.db, dataCaller(request), applied.config)
        : { points: [], hidden: 0 };
      const stats = await frameStatsOf(app.db, device.companyId, device.serialNumber);
      return ok({
        device: {
          id: device.id,
          name: device.name,
          serialNumber: device.serialNumber,
          online: device.online,
        },
        version: applied?.version ?? null,
        config: applied ? drawable(applied.config) : null,
        points,
        hidden,
        ports: stats.map((s) => ({
          port: s.port,
          stored: s.stored,
          bad:
            s.badCrc +
            s.wrongLength +
            s.badAnswer +
            s.unknownPacket +
            s.decodeErrors +
            s.malformed +
            s.refused,
          badCrc: s.badCrc,
          wrongLength: s.wrongLength,
          lastFrameAt: s.lastFrameAt,
        })),
      });
    },
  );
}

/** The configuration as drawn: nodes with their positions and settings, links. */
function drawable(config: GatewayConfig): GatewayConfig {
  return {
    nodes: config.nodes.map((n) => ({ ...n })),
    links: config.links.map((l) => ({ from: l.from, to: l.to })),
  } as GatewayConfig;
}
