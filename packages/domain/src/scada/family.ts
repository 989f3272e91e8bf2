/**
 * Device-family flow charts (issue 13 point 7, docs/configuration-screens.md): a template is a
 * configuration screen drawn once for a family of devices (a boiler, a gas-blending skid, a meter
 * cabinet, a PV inverter) over the family's named roles instead of a device's points. Placed on
 * a device, each role is mapped onto one of the device's points and the template's body is
 * rebound with `rebindScreen`: a person opens the device's flow chart with no drawing.
 *
 * In a template body a binding names a role: `itemId` is the role's number (1 = the first of
 * `roles`) and `field` is always `f1`, so the body passes the screens' own check and the
 * screen editor draws templates unchanged, the roles offered as its points (`rolePoints`).
 * A text element's `{role}` shows its role's name and `{template}` the template's name, in the
 * language the chart is shown in.
 */
import {
  type PointBinding,
  rebindScreen,
  type ScreenBody,
  type ScreenElement,
  screenCommands,
} from './screen';

export type FamilyLang = 'zh' | 'en';

export interface FamilyRole {
  /** how maps and code name the role: camelCase, unique in the template */
  key: string;
  name: Record<FamilyLang, string>;
  unit: string;
}

export const FAMILY_LIMITS = { roles: 40, code: 32, name: 50, unit: 16, roleKey: 32 } as const;
export const FAMILY_CODE = /^[a-z][a-z0-9-]{1,31}$/;
export const ROLE_KEY = /^[a-z][A-Za-z0-9]{0,31}$/;
/** the field every template binding names (its item id is the role's number) */
export const ROLE_FIELD = 'f1';

/** Each role mapped onto a point of the device, or null when the device has none for it. */
export type RoleMap = Record<string, PointBinding | null>;

/**
 * Each command a template's switches name (the family's word for it, `pumpStart`) mapped onto a
 * command of the device's configuration, or null when the device has none for it.
 */
export type CommandMap = Record<string, string | null>;

export type FamilyCheck<T> = { ok: true; value: T } | { ok: false; field: string; reason: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown, max: number, min = 1): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length >= min && t.length <= max ? t : null;
}

/** The template's roles as typed: keys unique and well formed, names in both languages. */
export function checkFamilyRoles(raw: unknown): FamilyCheck<FamilyRole[]> {
  if (!Array.isArray(raw)) return { ok: false, field: 'roles', reason: 'list' };
  if (raw.length === 0) return { ok: false, field: 'roles', reason: 'at least 1' };
  if (raw.length > FAMILY_LIMITS.roles)
    return { ok: false, field: 'roles', reason: `at most ${FAMILY_LIMITS.roles}` };
  const seen = new Set<string>();
  const roles: FamilyRole[] = [];
  for (const [i, r] of raw.entries()) {
    const at = `roles[${i}]`;
    if (!isObject(r)) return { ok: false, field: at, reason: 'object' };
    if (typeof r.key !== 'string' || !ROLE_KEY.test(r.key))
      return { ok: false, field: `${at}.key`, reason: 'key' };
    if (seen.has(r.key)) return { ok: false, field: `${at}.key`, reason: 'duplicate' };
    seen.add(r.key);
    const names = isObject(r.name) ? r.name : {};
    const zh = text(names.zh, FAMILY_LIMITS.name);
    if (zh === null) return { ok: false, field: `${at}.name.zh`, reason: `1 to ${FAMILY_LIMITS.name}` };
    const en = text(names.en, FAMILY_LIMITS.name);
    if (en === null) return { ok: false, field: `${at}.name.en`, reason: `1 to ${FAMILY_LIMITS.name}` };
    const unit = r.unit === undefined || r.unit === null ? '' : text(r.unit, FAMILY_LIMITS.unit, 0);
    if (unit === null) return { ok: false, field: `${at}.unit`, reason: `at most ${FAMILY_LIMITS.unit}` };
    roles.push({ key: r.key, name: { zh, en }, unit });
  }
  return { ok: true, value: roles };
}

/** The binding of role number `index` (0-based) in a template body. */
export function roleBinding(index: number): PointBinding {
  return { itemId: index + 1, field: ROLE_FIELD };
}

/** The role a template binding names, or null when it names none of `roles`. */
export function roleOf(roles: readonly FamilyRole[], binding: PointBinding): FamilyRole | null {
  if (binding.field !== ROLE_FIELD) return null;
  return roles[binding.itemId - 1] ?? null;
}

/** Where a template body binds something that is not one of its roles (or null: all are). */
export function strayRoleBinding(body: ScreenBody, roles: readonly FamilyRole[]): string | null {
  const i = body.elements.findIndex((e) => e.binding !== null && roleOf(roles, e.binding) === null);
  return i < 0 ? null : `elements[${i}].binding`;
}

/**
 * A template body after its role list changed shape (rows moved, added, removed): `from[j]` is
 * the old number (0-based) of the role now at row j, or null for a new role. Roles are bound
 * by number, so each binding follows its role to its new number; an element bound to a role
 * no longer in the list (or to no role at all) is unbound, its rules and a value-driven flow
 * dropped as the check requires. The body comes back unchanged when no binding moves.
 */
export function remapRoles(body: ScreenBody, from: ReadonlyArray<number | null>): ScreenBody {
  const to = new Map<number, number>();
  for (const [j, old] of from.entries()) if (old !== null) to.set(old, j);
  const moved = body.elements.some(
    (e) =>
      e.binding !== null &&
      e.binding.field === ROLE_FIELD &&
      to.get(e.binding.itemId - 1) !== e.binding.itemId - 1,
  );
  if (!moved) return body;
  return rebindScreen(body, (b) => {
    if (b.field !== ROLE_FIELD) return b;
    const j = to.get(b.itemId - 1);
    return j === undefined ? null : roleBinding(j);
  });
}

/** How many elements of a template body are bound to role number `index` (0-based). */
export function roleUses(body: ScreenBody, index: number): number {
  return body.elements.filter((e) => e.binding?.field === ROLE_FIELD && e.binding.itemId === index + 1)
    .length;
}

/** The roles as the screen editor's points: a template is drawn like any screen. */
export function rolePoints(roles: readonly FamilyRole[], templateName: string, lang: FamilyLang) {
  return roles.map((r, i) => ({
    ...roleBinding(i),
    itemName: templateName,
    fieldName: r.name[lang],
    unit: r.unit === '' ? null : r.unit,
    decimals: null,
  }));
}

const normal = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * The roles matched to a device's points by name (the point's field name is the role's name in
 * either language, case and spacing aside). When several items have a point of that name, the
 * item matching most roles wins, so one inverter's points are not mixed with another's.
 */
export function autoMapRoles(
  roles: readonly FamilyRole[],
  points: ReadonlyArray<PointBinding & { fieldName: string }>,
): RoleMap {
  const matches = (role: FamilyRole) =>
    points.filter((p) => {
      const n = normal(p.fieldName);
      return n === normal(role.name.zh) || n === normal(role.name.en);
    });
  const score = new Map<number, number>();
  for (const role of roles)
    for (const itemId of new Set(matches(role).map((p) => p.itemId)))
      score.set(itemId, (score.get(itemId) ?? 0) + 1);
  const map: RoleMap = {};
  for (const role of roles) {
    const found = matches(role).sort((a, b) => (score.get(b.itemId) ?? 0) - (score.get(a.itemId) ?? 0))[0];
    map[role.key] = found ? { itemId: found.itemId, field: found.field } : null;
  }
  return map;
}

/**
 * A role map as sent: only the template's roles, each null or one of the device's `points`.
 * Roles left out are null.
 */
export function checkRoleMap(
  raw: unknown,
  roles: readonly FamilyRole[],
  points: ReadonlyArray<PointBinding>,
): FamilyCheck<RoleMap> {
  if (!isObject(raw)) return { ok: false, field: 'map', reason: 'object' };
  const known = new Set(points.map((p) => `${p.itemId}:${p.field}`));
  const keys = new Set(roles.map((r) => r.key));
  for (const key of Object.keys(raw))
    if (!keys.has(key)) return { ok: false, field: `map.${key}`, reason: 'not a role' };
  const map: RoleMap = {};
  for (const role of roles) {
    const v = raw[role.key];
    if (v === undefined || v === null) {
      map[role.key] = null;
      continue;
    }
    if (!isObject(v) || typeof v.itemId !== 'number' || typeof v.field !== 'string')
      return { ok: false, field: `map.${role.key}`, reason: 'point' };
    if (!known.has(`${v.itemId}:${v.field}`))
      return { ok: false, field: `map.${role.key}`, reason: 'not a point of this device' };
    map[role.key] = { itemId: v.itemId, field: v.field };
  }
  return { ok: true, value: map };
}

/** The command names a template's switches send, each once, in drawing order. */
export function templateCommands(body: Pick<ScreenBody, 'elements'>): string[] {
  return [...new Set(screenCommands(body).map((c) => c.name))];
}

/** The template's commands matched to the device's by name (exactly, else case and spacing aside). */
export function autoMapCommands(names: readonly string[], deviceCommands: readonly string[]): CommandMap {
  const map: CommandMap = {};
  for (const name of names)
    map[name] = deviceCommands.includes(name)
      ? name
      : (deviceCommands.find((c) => normal(c) === normal(name)) ?? null);
  return map;
}

/**
 * A command map as sent: only the template's command names, each null or one of the device's
 * commands. Names left out are null.
 */
export function checkCommandMap(
  raw: unknown,
  names: readonly string[],
  deviceCommands: readonly string[],
): FamilyCheck<CommandMap> {
  if (!isObject(raw)) return { ok: false, field: 'commands', reason: 'object' };
  for (const key of Object.keys(raw))
    if (!names.includes(key))
      return { ok: false, field: `commands.${key}`, reason: 'not a command of the template' };
  const map: CommandMap = {};
  for (const name of names) {
    const v = raw[name];
    if (v === undefined || v === null || v === '') {
      map[name] = null;
      continue;
    }
    if (typeof v !== 'string' || !deviceCommands.includes(v))
      return { ok: false, field: `commands.${name}`, reason: 'not a command of this device' };
    map[name] = v;
  }
  return { ok: true, value: map };
}

/** The device's command a template's command `name` is mapped onto ('' when none is). */
export function mappedCommand(commands: CommandMap, name: string): string {
  return name === '' ? '' : (commands[name] ?? '');
}

function labelled(
  e: ScreenElement,
  role: FamilyRole | null,
  templateName: string,
  lang: FamilyLang,
  commands: CommandMap | undefined,
) {
  if (e.type !== 'text' && e.type !== 'switch') return e;
  const words = (s: string) =>
    s.replaceAll('{template}', templateName).replaceAll('{role}', role ? role.name[lang] : '');
  if (e.type === 'text') return { ...e, config: { ...e.config, text: words(e.config.text) } };
  const command = (name: string) => (commands === undefined ? name : mappedCommand(commands, name));
  return {
    ...e,
    config: {
      ...e.config,
      label: words(e.config.label),
      confirm: words(e.config.confirm),
      onCommand: command(e.config.onCommand),
      offCommand: command(e.config.offCommand),
    },
  };
}

/**
 * The template on a device: every role binding replaced by the role's point in `map` (an
 * unmapped role leaves its element unbound, as `rebindScreen` does), each switch's commands by
 * the device's in `commands` (an unmapped one is '': the switch does not send it; without a map,
 * as in the template editor's preview, the template's own names stay) and the labels in `lang`.
 */
export function placeTemplate(
  template: { name: Record<FamilyLang, string>; roles: readonly FamilyRole[]; body: ScreenBody },
  map: RoleMap,
  lang: FamilyLang,
  commands?: CommandMap,
): ScreenBody {
  const name = template.name[lang];
  const worded: ScreenBody = {
    ...template.body,
    elements: template.body.elements.map(
      (e) =>
        labelled(
          e,
          e.binding ? roleOf(template.roles, e.binding) : null,
          name,
          lang,
          commands,
        ) as ScreenElement,
    ),
  };
  return rebindScreen(worded, (b) => {
    const role = roleOf(template.roles, b);
    return role ? (map[role.key] ?? null) : null;
  });
}
