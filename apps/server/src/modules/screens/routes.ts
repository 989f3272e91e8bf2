/**
 * Configuration screens (docs/configuration-screens.md), the API of /editConfigurationTool,
 * /editConfigurationTool1 and /showConfigurationTool: menu code dm_list and, on every route,
 * the caller's level on the device (devices/access.ts): read to open and watch a screen,
 * read-write to edit it (lease, save, delete) and to work its switches. Another company's
 * device, or one the caller cannot read, is 40400 as if it did not exist.
 *
 * Live values: `GET …/screen/values` answers the newest value of every bound point; after it the
 * show page follows the device live socket (`{"type":"watch","deviceId"}`, devices/live-routes.ts),
 * whose `flow` record events carry each new record of the device's items the caller can read.
 */
import { DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { requireDeviceLevel } from '../devices/access';
import {
  bindablePoints,
  currentLease,
  deleteScreen,
  deviceCommands,
  LEASE_SECONDS,
  liveValues,
  readScreen,
  releaseLease,
  saveScreen,
  takeLease,
} from './service';
import { findSwitch, SwitchAnswer, SwitchBody, sendSwitchCommand } from './switch';

export const SCREEN_CODES = ['dm_list'] as const;
const BASE = '/devicemanagement/screen';
const LeaseId = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'the id the lease route answered' });

/** checked by checkScreenBody of packages/domain, which names the broken field */
const ScreenBodySchema = Type.Unknown({
  description: 'ScreenBody: width, height, background, staleSeconds, elements',
});

const ScreenSchema = Type.Object({
  body: ScreenBodySchema,
  version: Type.Integer({ description: 'each save adds one' }),
  updatedAt: Type.String(),
  updatedBy: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
});

const LeaseSchema = Type.Object({
  holder: Type.Object({ id: Type.Integer(), name: Type.String() }),
  expiresAt: Type.String(),
  mine: Type.Boolean({ description: 'held by the caller (maybe in another window)' }),
});

/** the newest values a live page draws (`liveValues`) */
export const LiveValuesSchema = Type.Object({
  at: Type.String({ description: 'the server’s clock: ages are worked out against it' }),
  online: Type.Boolean(),
  staleSeconds: Type.Integer(),
  values: Type.Array(
    Type.Object({
      itemId: Type.Integer(),
      field: Type.String(),
      value: Type.Unknown(),
      ts: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  hidden: Type.Integer({ description: 'bound points of items the caller cannot read, left out' }),
});

const DeviceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serialNumber: Type.String(),
  online: Type.Boolean(),
  level: Type.Integer({ description: 'the caller’s level: 1 read, 2 read-write, 3 administrator' }),
});

export default async function screenRoutes(app: App): Promise<void> {
  const tags = ['configuration screens'];
  const config = { permission: SCREEN_CODES };

  app.get(
    BASE,
    {
      config,
      schema: {
        tags,
        summary:
          "A device's configuration screen (null before the first save) with its bindable points, the commands a switch may send and who is editing it",
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              device: DeviceSchema,
              screen: Type.Union([ScreenSchema, Type.Null()]),
              points: Type.Array(
                Type.Object({
                  itemId: Type.Integer(),
                  itemName: Type.String(),
                  field: Type.String(),
                  fieldName: Type.String(),
                  unit: Type.Union([Type.String(), Type.Null()]),
                  decimals: Type.Union([Type.Integer(), Type.Null()]),
                }),
              ),
              commands: Type.Array(Type.String()),
              lease: Type.Union([LeaseSchema, Type.Null()]),
              canEdit: Type.Boolean({ description: 'read-write: may edit the screen and work its switches' }),
              leaseSeconds: Type.Integer(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const who = dataCaller(request);
      const [screen, points, commands, lease] = await Promise.all([
        readScreen(app.db, who.companyId, device.id),
        bindablePoints(app.db, who, device),
        deviceCommands(app.db, who.companyId, device.id),
        currentLease(app.db, who, device.id),
      ]);
      return ok({
        device: {
          id: device.id,
          name: device.name,
          serialNumber: device.serialNumber,
          online: device.online,
          level: device.level,
        },
        screen,
        points,
        commands,
        lease,
        canEdit: device.level >= DATA_PERMISSION.write,
        leaseSeconds: LEASE_SECONDS,
      });
    },
  );

  app.post(
    `${BASE}/lease`,
    {
      config,
      schema: {
        tags,
        summary:
          'Take the editing lease of a device’s screen (no leaseId) or renew yours (leaseId); 40900 naming who edits it while their lease runs',
        body: Type.Object({ id: Id, leaseId: Type.Optional(Type.Union([LeaseId, Type.Null()])) }),
        response: { 200: Envelope(Type.Object({ leaseId: Type.String(), expiresAt: Type.String() })) },
      },
    },
    async (request) => {
      const { id, leaseId } = request.body;
      await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      return ok(await takeLease(app.db, dataCaller(request), id, leaseId ?? null));
    },
  );

  app.post(
    `${BASE}/lease/release`,
    {
      config,
      schema: {
        tags,
        summary: 'Give the editing lease back (closing the editor)',
        body: Type.Object({ id: Id, leaseId: LeaseId }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id, leaseId } = request.body;
      await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      await releaseLease(app.db, dataCaller(request), id, leaseId);
      return ok(null);
    },
  );

  app.post(
    `${BASE}/save`,
    {
      config,
      schema: {
        tags,
        summary:
          'Save a device’s screen under your editing lease: the body is checked (the broken field named), bindings must be points of the device, switch commands commands of its configuration',
        body: Type.Object({ id: Id, leaseId: LeaseId, body: ScreenBodySchema }),
        response: { 200: Envelope(ScreenSchema) },
      },
    },
    async (request) => {
      const { id, leaseId, body } = request.body;
      const device = await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      return ok(
        await saveScreen(app.db, dataCaller(request), device, leaseId, body),
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    `${BASE}/delete`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a device’s screen (refused while someone else edits it)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id } = request.body;
      await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      await deleteScreen(app.db, dataCaller(request), id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    `${BASE}/values`,
    {
      config,
      schema: {
        tags,
        summary:
          'The newest value and its time of every point the screen binds whose item the caller can read; the show page greys values older than staleSeconds',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(LiveValuesSchema) },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const who = dataCaller(request);
      const screen = await readScreen(app.db, who.companyId, device.id);
      return ok(await liveValues(app.db, who, device, screen?.body ?? null));
    },
  );

  app.post(
    `${BASE}/switch`,
    {
      config,
      schema: {
        tags,
        summary:
          'Work a switch of the screen: sends its on or off command (a command node of the device configuration) on down/command; read-write level, the device online; logged in the device operation log',
        body: SwitchBody,
        response: { 200: SwitchAnswer },
      },
    },
    async (request) => {
      const { id, elementId, state } = request.body;
      const device = await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      const who = dataCaller(request);
      const screen = await readScreen(app.db, who.companyId, device.id);
      if (!screen) throw new AppError('screenNotFound', {}, { field: 'id' });
      const element = findSwitch(screen.body, elementId);
      const command = state === 'on' ? element.config.onCommand : element.config.offCommand;
      if (!command) throw new AppError('screenSwitchNoCommand', { state }, { field: 'state' });
      const operationId = await sendSwitchCommand(app, request, who, device, command, {
        screen: true,
        elementId,
        state,
      });
      return ok({ operationId, command }, 'operation', request.lang);
    },
  );
}
