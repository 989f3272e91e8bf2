/**
 * Device-family flow charts (docs/configuration-screens.md, issue 13 point 7): the templates of
 * system maintenance, a device's chosen template with its role map, the chart placed on the
 * device (the template rebound with `placeTemplate`) and the PV inverter's roles read for its
 * dashboard. The routes check the device level (devices/access.ts) before calling in here.
 */
import {
  autoMapCommands,
  autoMapRoles,
  BUILTIN_FAMILY_TEMPLATES,
  type CommandMap,
  checkCommandMap,
  checkFamilyRoles,
  checkRoleMap,
  checkScreenBody,
  FAMILY_CODE,
  FAMILY_LIMITS,
  type FamilyLang,
  type FamilyRole,
  INVERTER_FAMILY,
  type PointBinding,
  placeTemplate,
  type RoleMap,
  type ScreenBody,
  type ScreenElement,
  startOfDay,
  strayRoleBinding,
  templateCommands,
} from '@platform/domain';
import { and, asc, count, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { DataCaller } from '../cabin/permissions';
import { companies } from '../companies/tables';
import { dataRecords } from '../records/tables';
import {
  type BindablePoint,
  bindablePoints,
  deviceCommands,
  type ScreenDevice,
  screenValues,
} from '../screens/service';
import { deviceFlowcharts, familyTemplates } from './tables';

export type TemplateRow = typeof familyTemplates.$inferSelect;

export interface TemplateSummary {
  id: number;
  code: string;
  name: Record<FamilyLang, string>;
  roles: FamilyRole[];
  /** the commands its switches send, to be mapped onto a device's */
  commands: string[];
  builtin: boolean;
}

const summary = (t: TemplateRow): TemplateSummary => ({
  id: t.id,
  code: t.code,
  name: t.name,
  roles: t.roles,
  commands: templateCommands(t.body),
  builtin: t.builtin,
});

/**
 * The platform's own templates, at every start: put in by code, and kept up to date with this
 * version of the platform while nobody has edited them (`builtin`); a template system
 * maintenance has edited is left as it is, one it deleted comes back.
 */
export async function ensureBuiltinTemplates(db: Db): Promise<void> {
  await db
    .insert(familyTemplates)
    .values(
      BUILTIN_FAMILY_TEMPLATES.map((t) => ({
        code: t.code,
        name: t.name,
        roles: t.roles,
        body: t.body,
        builtin: true,
      })),
    )
    .onConflictDoUpdate({
      target: familyTemplates.code,
      set: {
        name: sql`excluded.name`,
        roles: sql`excluded.roles`,
        body: sql`excluded.body`,
        version: sql`${familyTemplates.version} + 1`,
        updatedAt: new Date(),
      },
      setWhere: sql`${familyTemplates.builtin} and (${familyTemplates.name} <> excluded.name or ${familyTemplates.roles} <> excluded.roles or ${familyTemplates.body} <> excluded.body)`,
    });
}

export async function listTemplates(
  db: Db,
): Promise<Array<TemplateSummary & { devices: number; updatedAt: string }>> {
  const rows = await db
    .select({ t: familyTemplates, devices: count(deviceFlowcharts.id) })
    .from(familyTemplates)
    .leftJoin(deviceFlowcharts, eq(deviceFlowcharts.templateId, familyTemplates.id))
    .groupBy(familyTemplates.id)
    .orderBy(asc(familyTemplates.id));
  return rows.map((r) => ({
    ...summary(r.t),
    devices: Number(r.devices),
    updatedAt: r.t.updatedAt.toISOString(),
  }));
}

export async function readTemplate(db: Db, id: number, field = 'id'): Promise<TemplateRow> {
  const [row] = await db.select().from(familyTemplates).where(eq(familyTemplates.id, id));
  if (!row) throw new AppError('familyNotFound', {}, { field });
  return row;
}

export interface TemplateInput {
  id?: number;
  /** the version the editor opened: a replace is refused when someone saved since */
  version?: number;
  code: string;
  name: { zh: string; en: string };
  roles: unknown;
  body: unknown;
}

function invalid(field: string, reason: string): AppError {
  return new AppError('familyInvalid', { field, reason }, { field });
}

/** Creates (no id) or replaces a template after checking its code, names, roles and drawing. */
export async function saveTemplate(db: Db, userId: number, input: TemplateInput): Promise<TemplateRow> {
  const code = input.code.trim();
  if (!FAMILY_CODE.test(code)) throw invalid('code', 'a-z, 0-9 and -, 2 to 32');
  for (const lang of ['zh', 'en'] as const) {
    const name = input.name[lang]?.trim() ?? '';
    if (name.length < 1 || name.length > FAMILY_LIMITS.name)
      throw invalid(`name.${lang}`, `1 to ${FAMILY_LIMITS.name}`);
  }
  const roles = checkFamilyRoles(input.roles);
  if (!roles.ok) throw invalid(roles.field, roles.reason);
  const body = checkScreenBody(input.body);
  if (!body.ok)
    throw new AppError(
      'screenInvalid',
      { field: `body.${body.field}`, reason: body.reason },
      { field: `body.${body.field}` },
    );
  const stray = strayRoleBinding(body.body, roles.value);
  if (stray) {
    const i = Number(/\[(\d+)\]/.exec(stray)?.[1]);
    const n = body.body.elements[i]?.binding?.itemId ?? 0;
    throw new AppError(
      'familyRoleInUse',
      { field: `body.${stray}`, role: `#${n}` },
      { field: `body.${stray}` },
    );
  }
  const name = { zh: input.name.zh.trim(), en: input.name.en.trim() };
  const [taken] = await db
    .select({ id: familyTemplates.id })
    .from(familyTemplates)
    .where(eq(familyTemplates.code, code));
  if (taken && taken.id !== input.id) throw new AppError('familyCodeTaken', { code }, { field: 'code' });
  if (input.id === undefined) {
    const [row] = await db
      .insert(familyTemplates)
      .values({ code, name, roles: roles.value, body: body.body, updatedBy: userId })
      .returning();
    return row!;
  }
  const before = await readTemplate(db, input.id);
  if (input.version !== undefined && input.version !== before.version)
    throw new AppError('familyChanged', { version: before.version }, { field: 'version' });
  const removed = before.roles.filter((r) => !roles.value.some((x) => x.key === r.key)).map((r) => r.key);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(familyTemplates)
      .set({
        code,
        name,
        roles: roles.value,
        body: body.body,
        builtin: false,
        version: sql`${familyTemplates.version} + 1`,
        updatedBy: userId,
        updatedAt: new Date(),
      })
      .where(and(eq(familyTemplates.id, before.id), eq(familyTemplates.version, before.version)))
      .returning();
    // saved by someone else between the read above and this update
    if (!row) throw new AppError('familyChanged', { version: before.version + 1 }, { field: 'version' });
    // a role taken out of the template leaves the devices' maps
    if (removed.length > 0) {
      const minus = removed.reduce((expr, key) => sql`${expr} - ${key}::text`, sql`${deviceFlowcharts.map}`);
      await tx.update(deviceFlowcharts).set({ map: minus }).where(eq(deviceFlowcharts.templateId, before.id));
    }
    return row!;
  });
}

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  await readTemplate(db, id);
  const [used] = await db
    .select({ n: count() })
    .from(deviceFlowcharts)
    .where(eq(deviceFlowcharts.templateId, id));
  if (Number(used?.n ?? 0) > 0)
    throw new AppError('familyInUse', { count: Number(used!.n) }, { field: 'id' });
  await db.delete(familyTemplates).where(eq(familyTemplates.id, id));
}

export interface DeviceChart {
  template: TemplateRow;
  map: RoleMap;
  commands: CommandMap;
  /** chosen by a person (false: matched by name, not saved) */
  saved: boolean;
}

/** The device's chosen template and map, if it has one. */
export async function savedChart(db: Db, companyId: number, gatewayId: number): Promise<DeviceChart | null> {
  const [row] = await db
    .select({ chart: deviceFlowcharts, template: familyTemplates })
    .from(deviceFlowcharts)
    .innerJoin(familyTemplates, eq(familyTemplates.id, deviceFlowcharts.templateId))
    .where(and(eq(deviceFlowcharts.companyId, companyId), eq(deviceFlowcharts.gatewayId, gatewayId)));
  return row
    ? { template: row.template, map: row.chart.map, commands: row.chart.commands, saved: true }
    : null;
}

/**
 * Sets the device's template, its role map (each role one of the device's points, or none) and
 * its command map (each command of the template's switches one of the device's, or none;
 * matched by name when not sent).
 */
export async function setChart(
  db: Db,
  caller: DataCaller,
  device: ScreenDevice,
  input: { templateId: number; map: unknown; commands?: unknown },
): Promise<void> {
  const template = await readTemplate(db, input.templateId, 'templateId');
  const [points, known] = await Promise.all([
    bindablePoints(db, caller, device),
    deviceCommands(db, caller.companyId, device.id),
  ]);
  const map = checkRoleMap(input.map, template.roles, points);
  if (!map.ok) throw invalid(map.field, map.reason);
  const names = templateCommands(template.body);
  const commands =
    input.commands === undefined
      ? ({ ok: true, value: autoMapCommands(names, known) } as const)
      : checkCommandMap(input.commands, names, known);
  if (!commands.ok) throw invalid(commands.field, commands.reason);
  const chart = {
    templateId: template.id,
    map: map.value,
    commands: commands.value,
    updatedBy: caller.userId,
  };
  await db
    .insert(deviceFlowcharts)
    .values({ companyId: caller.companyId, gatewayId: device.id, ...chart })
    .onConflictDoUpdate({
      target: [deviceFlowcharts.companyId, deviceFlowcharts.gatewayId],
      set: { ...chart, updatedAt: new Date() },
    });
}

export async function clearChart(db: Db, companyId: number, gatewayId: number): Promise<void> {
  const gone = await db
    .delete(deviceFlowcharts)
    .where(and(eq(deviceFlowcharts.companyId, companyId), eq(deviceFlowcharts.gatewayId, gatewayId)))
    .returning({ id: deviceFlowcharts.id });
  if (gone.length === 0) throw new AppError('flowChartNotSet', {}, { field: 'id' });
}

/** The chart as the device shows it: the template placed with its maps, in `lang`. */
export function placedBody(chart: DeviceChart, lang: FamilyLang): ScreenBody {
  return placeTemplate(chart.template, chart.map, lang, chart.commands);
}

/** A body that only binds `bindings` (to read their values with the screens' reader). */
function bindingsBody(bindings: PointBinding[]): ScreenBody {
  return {
    width: 320,
    height: 320,
    background: '',
    staleSeconds: 60,
    elements: bindings.map((binding, i) => ({ id: `p${i}`, binding }) as unknown as ScreenElement),
  };
}

export interface RoleReading {
  key: string;
  name: Record<FamilyLang, string>;
  unit: string;
  value: number | null;
  ts: string | null;
  /** the point the role reads, or null when the device has none for it */
  point: (PointBinding & { fieldName: string; itemName: string }) | null;
}

/**
 * The PV inverter behind a device: its saved chart when that is the inverter family, else the
 * inverter roles matched by name on its points (an inverter nobody has set up yet still shows);
 * null when neither gives it an AC power.
 */
export async function inverterChart(
  db: Db,
  caller: DataCaller,
  device: ScreenDevice,
  points: BindablePoint[],
): Promise<DeviceChart | null> {
  const saved = await savedChart(db, caller.companyId, device.id);
  if (saved) return saved.template.code === INVERTER_FAMILY ? saved : null;
  const [template] = await db.select().from(familyTemplates).where(eq(familyTemplates.code, INVERTER_FAMILY));
  if (!template) return null;
  const map = autoMapRoles(template.roles, points);
  return map.acPower ? { template, map, commands: {}, saved: false } : null;
}

/** Each role's newest value (numbers only) and the point it reads. */
export async function roleReadings(
  db: Db,
  caller: DataCaller,
  chart: DeviceChart,
  points: BindablePoint[],
): Promise<RoleReading[]> {
  const bound = chart.template.roles.flatMap((r) => (chart.map[r.key] ? [chart.map[r.key]!] : []));
  const { values } = await screenValues(db, caller, bindingsBody(bound));
  return chart.template.roles.map((role) => {
    const b = chart.map[role.key] ?? null;
    const v = b ? values.find((x) => x.itemId === b.itemId && x.field === b.field) : undefined;
    const point = b ? points.find((p) => p.itemId === b.itemId && p.field === b.field) : undefined;
    return {
      key: role.key,
      name: role.name,
      unit: role.unit,
      value: typeof v?.value === 'number' ? v.value : null,
      ts: v?.ts ?? null,
      point: b && point ? { ...b, fieldName: point.fieldName, itemName: point.itemName } : null,
    };
  });
}

/** The start of today in the company's time zone. */
export async function companyMidnight(db: Db, companyId: number, now: Date): Promise<Date> {
  const [row] = await db
    .select({ zone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  return new Date(startOfDay(now.getTime(), row?.zone));
}

/** minutes per point of the day's curve: 288 points a day at most */
export const SERIES_MINUTES = 5;

/**
 * Today's curve of one point (since the company's midnight, `companyMidnight`): the mean of its
 * number values in each 5-minute slot, oldest first.
 */
export async function todaySeries(
  db: Db,
  companyId: number,
  binding: PointBinding,
  since: Date,
): Promise<Array<{ ts: string; value: number }>> {
  const slot = SERIES_MINUTES * 60;
  const value = sql`${dataRecords.values} -> ${binding.field}`;
  // the slot is written into the text: the same expression groups, orders and is selected
  const bucket = sql<number>`floor(extract(epoch from ${dataRecords.ts}) / ${sql.raw(String(slot))})`;
  const rows = await db
    .select({ bucket, mean: sql<number>`avg((${value})::text::double precision)` })
    .from(dataRecords)
    .where(
      and(
        eq(dataRecords.companyId, companyId),
        eq(dataRecords.itemId, binding.itemId),
        isNull(dataRecords.parentId),
        gte(dataRecords.ts, since),
        sql`jsonb_typeof(${value}) = 'number'`,
      ),
    )
    .groupBy(bucket)
    .orderBy(bucket);
  return rows.map((r) => ({
    ts: new Date(Number(r.bucket) * slot * 1000).toISOString(),
    value: Number(r.mean),
  }));
}
