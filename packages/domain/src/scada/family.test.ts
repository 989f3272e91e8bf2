import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoMapCommands,
  autoMapRoles,
  BUILTIN_FAMILY_TEMPLATES,
  checkCommandMap,
  checkFamilyRoles,
  checkRoleMap,
  type FamilyRole,
  placeTemplate,
  remapRoles,
  roleBinding,
  roleOf,
  rolePoints,
  roleUses,
  strayRoleBinding,
  templateCommands,
} from './index';
import { checkScreenBody, screenBindings } from './screen';

const inverter = BUILTIN_FAMILY_TEMPLATES.find((t) => t.code === 'pv-inverter')!;

describe('family roles', () => {
  it('accepts keys, names in both languages and units; trims names', () => {
    const checked = checkFamilyRoles([
      { key: 'acPower', name: { zh: ' 交流功率 ', en: 'AC power' }, unit: 'kW' },
    ]);
    expect(checked).toEqual({
      ok: true,
      value: [{ key: 'acPower', name: { zh: '交流功率', en: 'AC power' }, unit: 'kW' }],
    });
  });

  it.each([
    [[], 'roles', 'at least 1'],
    [{}, 'roles', 'list'],
    [[{ key: 'Ac', name: { zh: 'a', en: 'a' } }], 'roles[0].key', 'key'],
    [
      [
        { key: 'a', name: { zh: 'a', en: 'a' } },
        { key: 'a', name: { zh: 'b', en: 'b' } },
      ],
      'roles[1].key',
      'duplicate',
    ],
    [[{ key: 'a', name: { zh: '', en: 'a' } }], 'roles[0].name.zh', '1 to 50'],
    [[{ key: 'a', name: { zh: 'a' } }], 'roles[0].name.en', '1 to 50'],
    [[{ key: 'a', name: { zh: 'a', en: 'a' }, unit: 'x'.repeat(17) }], 'roles[0].unit', 'at most 16'],
  ])('refuses %j naming %s', (raw, field, reason) => {
    expect(checkFamilyRoles(raw)).toEqual({ ok: false, field, reason });
  });
});

describe('the built-in templates', () => {
  it.each(BUILTIN_FAMILY_TEMPLATES.map((t) => [t.code, t] as const))(
    '%s passes the screen check and binds only its roles',
    (_code, t) => {
      expect(checkScreenBody(t.body)).toMatchObject({ ok: true });
      expect(checkFamilyRoles(t.roles)).toMatchObject({ ok: true });
      expect(strayRoleBinding(t.body, t.roles)).toBeNull();
      // every role is drawn somewhere
      const bound = new Set(screenBindings(t.body).map((b) => b.itemId));
      expect(t.roles.map((_, i) => bound.has(i + 1))).not.toContain(false);
    },
  );

  it('a binding past the roles is stray, named by its place', () => {
    const body = { ...inverter.body, elements: [...inverter.body.elements] };
    const last = body.elements.length - 1;
    body.elements[last] = { ...body.elements[last]!, binding: roleBinding(inverter.roles.length) };
    expect(strayRoleBinding(body, inverter.roles)).toBe(`elements[${last}].binding`);
  });
});

describe('role maps', () => {
  const roles: FamilyRole[] = [
    { key: 'acPower', name: { zh: '交流功率', en: 'AC power' }, unit: 'kW' },
    { key: 'status', name: { zh: '运行状态', en: 'Status' }, unit: '' },
    { key: 'temperature', name: { zh: '机内温度', en: 'Internal temperature' }, unit: '°C' },
  ];

  it('matches points by name in either language, case and spaces aside', () => {
    const points = [
      { itemId: 7, field: 'f1', fieldName: 'AC  Power' },
      { itemId: 7, field: 'f5', fieldName: '运行状态' },
      { itemId: 9, field: 'f2', fieldName: '温度' },
    ];
    expect(autoMapRoles(roles, points)).toEqual({
      acPower: { itemId: 7, field: 'f1' },
      status: { itemId: 7, field: 'f5' },
      temperature: null,
    });
  });

  it('takes the item that matches most roles when two items have a point of the same name', () => {
    const points = [
      { itemId: 3, field: 'f1', fieldName: '运行状态' },
      { itemId: 8, field: 'f1', fieldName: '交流功率' },
      { itemId: 8, field: 'f2', fieldName: '运行状态' },
    ];
    expect(autoMapRoles(roles, points).status).toEqual({ itemId: 8, field: 'f2' });
  });

  it('accepts only the template roles, each a point of the device', () => {
    const points = [{ itemId: 7, field: 'f1' }];
    expect(checkRoleMap({ acPower: { itemId: 7, field: 'f1' } }, roles, points)).toEqual({
      ok: true,
      value: { acPower: { itemId: 7, field: 'f1' }, status: null, temperature: null },
    });
    expect(checkRoleMap({ power: null }, roles, points)).toEqual({
      ok: false,
      field: 'map.power',
      reason: 'not a role',
    });
    expect(checkRoleMap({ status: { itemId: 7, field: 'f2' } }, roles, points)).toEqual({
      ok: false,
      field: 'map.status',
      reason: 'not a point of this device',
    });
    expect(checkRoleMap([], roles, points)).toMatchObject({ ok: false, field: 'map' });
  });

  it('offers the roles to the editor as its points, in the chosen language', () => {
    expect(rolePoints(roles, '光伏逆变器', 'en')[2]).toEqual({
      itemId: 3,
      field: 'f1',
      itemName: '光伏逆变器',
      fieldName: 'Internal temperature',
      unit: '°C',
      decimals: null,
    });
  });
});

describe('placing a template on a device', () => {
  it('binds each element to its role’s point and words the labels in the chosen language', () => {
    const map = Object.fromEntries(inverter.roles.map((r, i) => [r.key, { itemId: 40, field: `f${i + 1}` }]));
    const placed = placeTemplate(inverter, map, 'en');
    expect(checkScreenBody(placed)).toMatchObject({ ok: true });
    const titleText = placed.elements.find((e) => e.type === 'text')!;
    expect(titleText.type === 'text' && titleText.config.text).toBe('PV inverter');
    const acPower = placed.elements.find(
      (e) => e.type === 'text' && e.binding?.field === 'f1' && e.config.text.startsWith('AC'),
    );
    expect(acPower?.type === 'text' && acPower.config.text).toBe('AC power ');
    const zh = placeTemplate(inverter, map, 'zh');
    expect(zh.elements.some((e) => e.type === 'text' && e.config.text === '交流功率 ')).toBe(true);
  });

  it('property: mapped roles land on their points, unmapped ones leave their elements unbound and without rules, and the result always passes the check', () => {
    const t = inverter;
    fc.assert(
      fc.property(
        fc.array(
          fc.option(
            fc.record({
              itemId: fc.integer({ min: 1, max: 1e6 }),
              field: fc.constantFrom('f1', 'f2', 'f30'),
            }),
            { nil: null },
          ),
          {
            minLength: t.roles.length,
            maxLength: t.roles.length,
          },
        ),
        fc.constantFrom('zh' as const, 'en' as const),
        (points, lang) => {
          const map = Object.fromEntries(t.roles.map((r, i) => [r.key, points[i] ?? null]));
          const placed = placeTemplate(t, map, lang);
          expect(checkScreenBody(placed)).toMatchObject({ ok: true });
          for (const [i, e] of placed.elements.entries()) {
            const own = t.body.elements[i]!.binding;
            const point = own === null ? null : (points[own.itemId - 1] ?? null);
            expect(e.binding).toEqual(point);
            if (point === null) expect(e.rules).toEqual([]);
          }
          // no placeholder is left in any label
          expect(JSON.stringify(placed)).not.toMatch(/\{(role|template)\}/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('reshaping the role list', () => {
  const cabinet = BUILTIN_FAMILY_TEMPLATES.find((t) => t.code === 'meter-cabinet')!;
  const numbers = (body: typeof cabinet.body) => body.elements.map((e) => e.binding?.itemId ?? null);

  it('moves each binding with its role when rows are reordered, and back again', () => {
    const n = cabinet.roles.length;
    // the last role moved to the top
    const from = [n - 1, ...Array.from({ length: n - 1 }, (_, i) => i)];
    const moved = remapRoles(cabinet.body, from);
    expect(checkScreenBody(moved)).toMatchObject({ ok: true });
    const roles = from.map((i) => cabinet.roles[i]!);
    for (const [i, e] of moved.elements.entries()) {
      const own = cabinet.body.elements[i]!.binding;
      expect(e.binding === null ? null : roleOf(roles, e.binding)).toEqual(
        own === null ? null : roleOf(cabinet.roles, own),
      );
    }
    const back = from.map((_, j) => from.indexOf(j));
    expect(numbers(remapRoles(moved, back))).toEqual(numbers(cabinet.body));
  });

  it('unbinds (and drops the rules of) what was bound to a removed role, and keeps the body when nothing moves', () => {
    const n = cabinet.roles.length;
    const drawn = cabinet.body.elements.findIndex((e) => e.binding?.itemId === 1);
    expect(roleUses(cabinet.body, 0)).toBeGreaterThan(0);
    const removed = remapRoles(
      cabinet.body,
      Array.from({ length: n - 1 }, (_, j) => j + 1),
    );
    expect(checkScreenBody(removed)).toMatchObject({ ok: true });
    expect(removed.elements[drawn]!.binding).toBeNull();
    expect(removed.elements[drawn]!.rules).toEqual([]);
    expect(roleUses(removed, 0)).toBe(roleUses(cabinet.body, 1));
    expect(strayRoleBinding(removed, cabinet.roles.slice(1))).toBeNull();
    // a role added at the end moves nothing
    const same = Array.from({ length: n }, (_, i) => i);
    expect(remapRoles(cabinet.body, [...same, null])).toBe(cabinet.body);
  });
});

describe('switch commands', () => {
  const boiler = BUILTIN_FAMILY_TEMPLATES.find((t) => t.code === 'boiler-feedwater')!;
  const skid = BUILTIN_FAMILY_TEMPLATES.find((t) => t.code === 'gas-blending-skid')!;

  it('lists each command a template’s switches name once, in drawing order', () => {
    expect(templateCommands(boiler.body)).toEqual(['pumpStart', 'pumpStop']);
    expect(templateCommands(skid.body)).toEqual(['valveOpen', 'valveClose']);
    expect(templateCommands(inverter.body)).toEqual([]);
    const twice = { elements: [...boiler.body.elements, ...boiler.body.elements] };
    expect(templateCommands(twice)).toEqual(['pumpStart', 'pumpStop']);
  });

  it('matches the device’s commands by name: exactly first, then case and spacing aside', () => {
    expect(autoMapCommands(['pumpStart', 'pumpStop'], ['pumpStop', 'PUMPSTART', 'pumpStart'])).toEqual({
      pumpStart: 'pumpStart',
      pumpStop: 'pumpStop',
    });
    expect(autoMapCommands(['pumpStart', 'pumpStop'], ['PumpStart ', 'reboot'])).toEqual({
      pumpStart: 'PumpStart ',
      pumpStop: null,
    });
    expect(autoMapCommands([], ['pumpStart'])).toEqual({});
  });

  it('accepts only the template’s names, each one of the device’s commands or none', () => {
    const names = ['pumpStart', 'pumpStop'];
    expect(checkCommandMap({ pumpStart: 'on1' }, names, ['on1', 'off1'])).toEqual({
      ok: true,
      value: { pumpStart: 'on1', pumpStop: null },
    });
    expect(checkCommandMap({ pumpStart: '', pumpStop: null }, names, ['on1'])).toEqual({
      ok: true,
      value: { pumpStart: null, pumpStop: null },
    });
    expect(checkCommandMap({ pumpStart: 'reboot' }, names, ['on1'])).toEqual({
      ok: false,
      field: 'commands.pumpStart',
      reason: 'not a command of this device',
    });
    expect(checkCommandMap({ pumpStart: 7 }, names, ['on1'])).toMatchObject({
      ok: false,
      field: 'commands.pumpStart',
    });
    expect(checkCommandMap({ formatDisk: 'on1' }, names, ['on1'])).toMatchObject({
      ok: false,
      field: 'commands.formatDisk',
    });
    expect(checkCommandMap(['on1'], names, ['on1'])).toMatchObject({ ok: false, field: 'commands' });
  });

  it('places each switch with the device’s commands; an unmapped one sends nothing; no map keeps the template’s names', () => {
    const map = Object.fromEntries(boiler.roles.map((r, i) => [r.key, { itemId: 9, field: `f${i + 1}` }]));
    const sw = (body: ReturnType<typeof placeTemplate>) => {
      const e = body.elements.find((x) => x.type === 'switch')!;
      return e.type === 'switch' ? e.config : null;
    };
    const placed = placeTemplate(boiler, map, 'zh', { pumpStart: 'on1', pumpStop: 'off1' });
    expect(sw(placed)).toMatchObject({ label: '锅炉给水系统', onCommand: 'on1', offCommand: 'off1' });
    expect(checkScreenBody(placed)).toMatchObject({ ok: true });
    expect(sw(placeTemplate(boiler, map, 'en', { pumpStart: 'on1', pumpStop: null }))).toMatchObject({
      label: 'Boiler feedwater',
      onCommand: 'on1',
      offCommand: '',
    });
    expect(sw(placeTemplate(boiler, map, 'en', {}))).toMatchObject({ onCommand: '', offCommand: '' });
    expect(sw(placeTemplate(boiler, map, 'en'))).toMatchObject({
      onCommand: 'pumpStart',
      offCommand: 'pumpStop',
    });
    // the skid's valve switch is worded by its role
    const skidMap = Object.fromEntries(skid.roles.map((r) => [r.key, null]));
    expect(sw(placeTemplate(skid, skidMap, 'en', {}))!.label).toBe('Outlet valve');
  });
});
