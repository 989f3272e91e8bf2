/**
 * Device-family flow charts (docs/configuration-screens.md, issue 13 points 4 and 7):
 * - a device's flow chart (/flowChart, /FlowChart6E, /nssFlowChart…, /NssVisualization,
 *   /nssPreview; menu code dm_list and the caller's level on the device: read to see it,
 *   read-write to choose its template and map its roles);
 * - the PV inverter dashboard (/inverterDashboard; sd_capsule or dm_list, read level);
 * - the templates of system maintenance (systemnss3dfw, system_nss3dfw: the platform operator's).
 * Another company's device, or one the caller cannot read, is 40400 as if it did not exist.
 */
import {
  DATA_PERMISSION,
  type FamilyLang,
  INVERTER_FAMILY,
  mappedCommand,
  rolePoints,
  type ScreenBody,
  templateCommands,
} from '@platform/domain';
import { Type } from 'typebox';
import { callerActor } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { requireDeviceLevel } from '../devices/access';
import { LiveValuesSchema } from '../screens/routes';
import { bindablePoints, deviceCommands, liveValues } from '../screens/service';
import { findSwitch, SwitchAnswer, SwitchBody, sendSwitchCommand } from '../screens/switch';
import {
  clearChart,
  companyMidnight,
  deleteTemplate,
  inverterChart,
  listTemplates,
  placedBody,
  readTemplate,
  roleReadings,
  SERIES_MINUTES,
  savedChart,
  saveTemplate,
  setChart,
  todaySeries,
} from './service';

const DEVICE_CODES = ['dm_list'] as const;
const INVERTER_CODES = ['sd_capsule', 'dm_list'] as const;
const SYSTEM_CODE = 'system_nss3dfw' as const;
const BASE = '/devicemanagement/flowchart';

const Lang = Literals(['zh', 'en'] as const);
const Names = Type.Object({ zh: Type.String(), en: Type.String() });
const RoleSchema = Type.Object({ key: Type.String(), name: Names, unit: Type.String() });
const Binding = Type.Object({ itemId: Type.Integer(), field: Type.String() });
const TemplateSummarySchema = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Names,
  roles: Type.Array(RoleSchema),
  commands: Type.Array(Type.String(), { description: 'the commands its switches send' }),
  builtin: Type.Boolean({ description: 'as the platform put it there, never edited' }),
});
const CommandMapSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()]));
const PointSchema = Type.Object({
  itemId: Type.Integer(),
  itemName: Type.String(),
  field: Type.String(),
  fieldName: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  decimals: Type.Union([Type.Integer(), Type.Null()]),
});
const DeviceSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  serialNumber: Type.String(),
  online: Type.Boolean(),
});
export default async function flowchartRoutes(app: App): Promise<void> {
  const tags = ['flow charts'];
  const deviceConfig = { permission: DEVICE_CODES };
  const langOf = (asked: FamilyLang | undefined, lang: string): FamilyLang =>
    asked ?? (lang === 'en' ? 'en' : 'zh');

  app.get(
    BASE,
    {
      config: deviceConfig,
      schema: {
        tags,
        summary:
          "A device's flow chart: the family template chosen for it placed on its points (null before one is chosen), its role and command maps, the device's points and commands and the templates to choose from",
        querystring: Type.Object({
          id: Id,
          lang: Type.Optional(Lang),
        }),
        response: {
          200: Envelope(
            Type.Object({
              device: DeviceSchema,
              chart: Type.Union([
                Type.Object({
                  templateId: Type.Integer(),
                  name: Type.String(),
                  map: Type.Record(Type.String(), Type.Union([Binding, Type.Null()])),
                  commands: CommandMapSchema,
                  body: Type.Unknown({
                    description:
                      "the template placed on the device (ScreenBody); a switch's unmapped command is ''",
                  }),
                  unmapped: Type.Array(Type.String(), { description: 'roles the device has no point for' }),
                }),
                Type.Null(),
              ]),
              points: Type.Array(PointSchema),
              commands: Type.Array(Type.String(), {
                description: "the commands of the device's running configuration a switch may send",
              }),
              templates: Type.Array(TemplateSummarySchema),
              canEdit: Type.Boolean({
                description: 'read-write: may choose the template, map the roles and work the switches',
              }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const who = dataCaller(request);
      const lang = langOf(request.query.lang, request.lang);
      const [chart, points, commands, templates] = await Promise.all([
        savedChart(app.db, who.companyId, device.id),
        bindablePoints(app.db, who, device),
        deviceCommands(app.db, who.companyId, device.id),
        listTemplates(app.db),
      ]);
      return ok({
        device: {
          id: device.id,
          name: device.name,
          serialNumber: device.serialNumber,
          online: device.online,
        },
        chart: chart
          ? {
              templateId: chart.template.id,
              name: chart.template.name[lang],
              map: chart.map,
              commands: chart.commands,
              body: placedBody(chart, lang),
              unmapped: chart.template.roles.filter((r) => !chart.map[r.key]).map((r) => r.key),
            }
          : null,
        points,
        commands,
        templates: templates.map(({ devices: _d, updatedAt: _u, ...t }) => t),
        canEdit: device.level >= DATA_PERMISSION.write,
      });
    },
  );

  app.get(
    `${BASE}/values`,
    {
      config: deviceConfig,
      schema: {
        tags,
        summary:
          'The newest value and its time of every point the flow chart binds whose item the caller can read; values older than staleSeconds are shown grey',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(LiveValuesSchema) },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const who = dataCaller(request);
      const chart = await savedChart(app.db, who.companyId, device.id);
      return ok(await liveValues(app.db, who, device, chart ? placedBody(chart, 'zh') : null));
    },
  );

  app.post(
    `${BASE}/set`,
    {
      config: deviceConfig,
      schema: {
        tags,
        summary:
          "Choose the device's family template, map each of its roles onto one of the device's points and each command of its switches onto one of the device's commands (or none; matched by name when commands is left out); read-write level",
        body: Type.Object({
          id: Id,
          templateId: Id,
          map: Type.Record(Type.String(), Type.Union([Binding, Type.Null()])),
          commands: Type.Optional(CommandMapSchema),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { id, templateId, map, commands } = request.body;
      const device = await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      await setChart(app.db, dataCaller(request), device, { templateId, map, commands });
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/clear`,
    {
      config: deviceConfig,
      schema: {
        tags,
        summary: "Take the device's flow chart away (its template stays); read-write level",
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.body.id, DATA_PERMISSION.write);
      await clearChart(app.db, dataCaller(request).companyId, device.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    `${BASE}/switch`,
    {
      config: deviceConfig,
      schema: {
        tags,
        summary:
          "Work a switch of the device's flow chart: sends the device command its on or off command is mapped onto, on down/command; read-write level, the device online; logged in the device operation log",
        body: SwitchBody,
        response: { 200: SwitchAnswer },
      },
    },
    async (request) => {
      const { id, elementId, state } = request.body;
      const device = await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      const who = dataCaller(request);
      const chart = await savedChart(app.db, who.companyId, device.id);
      if (!chart) throw new AppError('flowChartNotSet', {}, { field: 'id' });
      // the template's switch names its commands; the chart maps each onto one of the device's
      const named = findSwitch(chart.template.body, elementId).config[
        state === 'on' ? 'onCommand' : 'offCommand'
      ];
      if (!named) throw new AppError('screenSwitchNoCommand', { state }, { field: 'state' });
      const command = mappedCommand(chart.commands, named);
      if (!command)
        throw new AppError('flowChartCommandUnmapped', { state, command: named }, { field: 'state' });
      const operationId = await sendSwitchCommand(app, request, who, device, command, {
        flowChart: chart.template.code,
        elementId,
        state,
      });
      return ok({ operationId, command }, 'operation', request.lang);
    },
  );

  app.get(
    '/devicemanagement/inverter',
    {
      config: { permission: INVERTER_CODES },
      schema: {
        tags,
        summary:
          "A PV inverter's dashboard: each role of the inverter family (AC and DC power, daily and total yield, status, temperature, DC voltage) with its newest value and time, the efficiency, and today's AC power in 5-minute means",
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              device: DeviceSchema,
              at: Type.String(),
              staleSeconds: Type.Integer(),
              mapped: Type.Boolean({
                description: 'the roles were chosen by a person (else matched by name)',
              }),
              roles: Type.Array(
                Type.Object({
                  key: Type.String(),
                  name: Names,
                  unit: Type.String(),
                  value: Type.Union([Type.Number(), Type.Null()]),
                  ts: Type.Union([Type.String(), Type.Null()]),
                  point: Type.Union([
                    Type.Object({
                      itemId: Type.Integer(),
                      field: Type.String(),
                      fieldName: Type.String(),
                      itemName: Type.String(),
                    }),
                    Type.Null(),
                  ]),
                }),
              ),
              efficiency: Type.Union([Type.Number(), Type.Null()], {
                description: 'AC power ÷ DC power in %, while both are fresh and DC power is above 0',
              }),
              today: Type.Array(Type.Object({ ts: Type.String(), value: Type.Number() })),
              since: Type.String({ description: 'the start of today in the company’s time zone' }),
              seriesMinutes: Type.Integer(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const device = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const who = dataCaller(request);
      const points = await bindablePoints(app.db, who, device);
      const chart = await inverterChart(app.db, who, device, points);
      if (!chart) throw new AppError('notAnInverter', {}, { field: 'id' });
      const roles = await roleReadings(app.db, who, chart, points);
      const now = new Date();
      const staleSeconds = chart.template.body.staleSeconds;
      const fresh = (key: string) => {
        const r = roles.find((x) => x.key === key);
        return r?.value != null && r.ts !== null && now.getTime() - Date.parse(r.ts) <= staleSeconds * 1000
          ? r.value
          : null;
      };
      const ac = fresh('acPower');
      const dc = fresh('dcPower');
      const acPoint = roles.find((r) => r.key === 'acPower')?.point ?? null;
      const since = await companyMidnight(app.db, who.companyId, now);
      return ok({
        device: {
          id: device.id,
          name: device.name,
          serialNumber: device.serialNumber,
          online: device.online,
        },
        at: now.toISOString(),
        staleSeconds,
        mapped: chart.saved,
        roles,
        efficiency: ac !== null && dc !== null && dc > 0 ? Math.round((ac / dc) * 10_000) / 100 : null,
        today: acPoint ? await todaySeries(app.db, who.companyId, acPoint, since) : [],
        since: since.toISOString(),
        seriesMinutes: SERIES_MINUTES,
      });
    },
  );

  // system maintenance: the templates themselves
  const systemConfig = { permission: SYSTEM_CODE };

  app.get(
    '/system/flowchart/template/list',
    {
      config: systemConfig,
      schema: {
        tags,
        summary: 'System maintenance: every device-family template with how many devices use it',
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                ...TemplateSummarySchema.properties,
                devices: Type.Integer(),
                updatedAt: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async () => ok(await listTemplates(app.db)),
  );

  app.get(
    '/system/flowchart/template',
    {
      config: systemConfig,
      schema: {
        tags,
        summary: 'System maintenance: one template with its drawing, and its roles as the editor’s points',
        querystring: Type.Object({ id: Id, lang: Type.Optional(Lang) }),
        response: {
          200: Envelope(
            Type.Object({
              ...TemplateSummarySchema.properties,
              body: Type.Unknown({
                description: 'ScreenBody whose bindings name roles (itemId = role number)',
              }),
              version: Type.Integer(),
              points: Type.Array(PointSchema),
            }),
          ),
        },
      },
    },
    async (request) => {
      const t = await readTemplate(app.db, request.query.id);
      const lang = langOf(request.query.lang, request.lang);
      return ok({
        id: t.id,
        code: t.code,
        name: t.name,
        roles: t.roles,
        commands: templateCommands(t.body),
        builtin: t.builtin,
        body: t.body as ScreenBody,
        version: t.version,
        points: rolePoints(t.roles, t.name[lang], lang),
      });
    },
  );

  app.post(
    '/system/flowchart/template/save',
    {
      config: systemConfig,
      schema: {
        tags,
        summary:
          'System maintenance: create (no id) or replace a template: code, names, roles and the drawing; a role still bound in the drawing cannot be removed, and a replace naming an older version than the stored one is refused',
        body: Type.Object({
          id: Type.Optional(Id),
          version: Type.Optional(
            Type.Integer({
              minimum: 1,
              description:
                'the version the editor opened; a replace is refused (40900) when someone saved since',
            }),
          ),
          code: Type.String({ maxLength: 64 }),
          name: Names,
          roles: Type.Array(Type.Unknown(), { maxItems: 100 }),
          body: Type.Unknown(),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), version: Type.Integer() })) },
      },
    },
    async (request) => {
      const saved = await saveTemplate(app.db, callerActor(request).userId, request.body);
      return ok({ id: saved.id, version: saved.version }, 'operation', request.lang);
    },
  );

  app.post(
    '/system/flowchart/template/delete',
    {
      config: systemConfig,
      schema: {
        tags,
        summary: 'System maintenance: delete a template no device uses',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const t = await readTemplate(app.db, request.body.id);
      if (t.code === INVERTER_FAMILY) throw new AppError('familyInverterKept', {}, { field: 'id' });
      await deleteTemplate(app.db, t.id);
      return ok(null, 'deleted', request.lang);
    },
  );
}
