import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyOf, record, undo } from '../boards/edit';
import { messageFor } from '../errors';
import {
  evaluateElement,
  firstMatch,
  NO_VALUE_TEXT,
  numericValue,
  type PointSample,
  STALE_GREY,
} from './evaluate';
import {
  bindingPaths,
  checkScreenBody,
  emptyScreen,
  RULE_OPS,
  rebindScreen,
  SCREEN_ELEMENT_TYPES,
  SCREEN_LIMITS,
  type ScreenBody,
  type ScreenElement,
  screenBindings,
  screenCommands,
  type ThresholdRule,
} from './screen';
import { addElement, moveElementLayer, placeElement, removeElement, setElementFlag } from './screen-edit';

const ok = (raw: unknown): ScreenBody => {
  const r = checkScreenBody(raw);
  if (!r.ok) throw new Error(`${r.field}: ${r.reason}`);
  return r.body;
};
const broken = (raw: unknown) => {
  const r = checkScreenBody(raw);
  return r.ok ? null : r.field;
};

const tank = {
  id: 'tank1',
  type: 'tank',
  x: 100,
  y: 100,
  w: 120,
  h: 200,
  binding: { itemId: 7, field: 'f1' },
  config: { min: 0, max: 5 },
  rules: [
    { op: '>=', value: 4.5, effects: { fill: '#ff4d4f', blink: true } },
    { op: 'between', value: 1, value2: 4.5, effects: { fill: '#52c41a' } },
    { op: '<', value: 1, effects: { fill: '#faad14' } },
  ],
};
const pump = { id: 'p1', type: 'pump', x: 300, y: 100, w: 100, h: 100, binding: { itemId: 7, field: 'f2' } };
const pipe = {
  id: 'pipe1',
  type: 'line',
  x: 220,
  y: 190,
  w: 80,
  h: 20,
  binding: { itemId: 7, field: 'f2' },
  config: {
    points: [
      { x: 0, y: 10 },
      { x: 80, y: 10 },
    ],
    flow: 'value',
  },
};
const label = {
  id: 't1',
  type: 'text',
  x: 100,
  y: 40,
  w: 200,
  h: 40,
  binding: { itemId: 7, field: 'f1' },
  config: { text: '液位', unit: 'm', decimals: 2 },
};
const sw = {
  id: 's1',
  type: 'switch',
  x: 450,
  y: 100,
  w: 120,
  h: 48,
  binding: { itemId: 7, field: 'f2' },
  config: { label: '泵', onCommand: 'pumpOn', offCommand: 'pumpOff', confirm: '确定切换泵？' },
};
const screen = { width: 1280, height: 720, background: '#001529', elements: [tank, pump, pipe, label, sw] };

describe('checkScreenBody', () => {
  it('accepts a tank, pump, pipe, text and switch screen, filling defaults', () => {
    const body = ok(screen);
    expect(body.staleSeconds).toBe(60);
    expect(body.elements).toHaveLength(5);
    const t = body.elements[0]!;
    expect(t).toMatchObject({ z: 0, locked: false, hidden: false, style: { strokeWidth: 2, fontSize: 16 } });
    expect(t.type === 'tank' && t.config).toEqual({ min: 0, max: 5, showValue: true });
    expect(body.elements[2]!.type === 'line' && body.elements[2]!.config).toMatchObject({
      pipe: true,
      width: 8,
    });
    expect(screenBindings(body)).toEqual([
      { itemId: 7, field: 'f1' },
      { itemId: 7, field: 'f2' },
    ]);
    expect(screenCommands(body)).toEqual([
      { path: 'elements[4].config.onCommand', name: 'pumpOn' },
      { path: 'elements[4].config.offCommand', name: 'pumpOff' },
    ]);
    expect(bindingPaths(body).map((b) => b.path)).toEqual([
      'elements[0].binding',
      'elements[1].binding',
      'elements[2].binding',
      'elements[3].binding',
      'elements[4].binding',
    ]);
  });

  it('drops unknown keys and is idempotent', () => {
    const body = ok({ ...screen, extra: 1, elements: [{ ...pump, evil: '<script>' }] });
    expect('extra' in body).toBe(false);
    expect('evil' in body.elements[0]!).toBe(false);
    expect(ok(body)).toEqual(body);
  });

  it.each([
    [null, 'body'],
    [{ width: 100 }, 'body.width'],
    [{ width: 8000 }, 'body.width'],
    [{ height: 1.5 }, 'body.height'],
    [{ background: 'url(x)' }, 'body.background'],
    [{ staleSeconds: 1 }, 'body.staleSeconds'],
    [{ elements: {} }, 'elements'],
    [{ elements: [pump, pump] }, 'elements[1].id'],
    [{ elements: [{ ...pump, type: 'rocket' }] }, 'elements[0].type'],
    [{ elements: [{ ...pump, id: 'a b' }] }, 'elements[0].id'],
    [{ elements: [{ ...pump, x: 1900 }] }, 'elements[0].x'],
    [{ elements: [{ ...pump, w: 10 }] }, 'elements[0].w'],
    [{ elements: [{ ...pump, z: -1 }] }, 'elements[0].z'],
    [{ elements: [{ ...pump, style: { fill: 'javascript:alert(1)' } }] }, 'elements[0].style.fill'],
    [{ elements: [{ ...pump, style: { fontSize: 2 } }] }, 'elements[0].style.fontSize'],
    [{ elements: [{ ...pump, binding: { itemId: 0, field: 'f1' } }] }, 'elements[0].binding.itemId'],
    [{ elements: [{ ...pump, binding: { itemId: 1, field: 'name' } }] }, 'elements[0].binding.field'],
    [{ elements: [{ ...tank, config: { min: 5, max: 5 } }] }, 'elements[0].config.max'],
    [{ elements: [{ ...tank, config: { min: Number.NaN } }] }, 'elements[0].config.min'],
    [{ elements: [{ ...tank, config: { max: 1e13 } }] }, 'elements[0].config.max'],
    [
      { elements: [{ ...tank, rules: [{ op: '!=', value: 1, effects: { blink: true } }] }] },
      'elements[0].rules[0].op',
    ],
    [
      { elements: [{ ...tank, rules: [{ op: '>', value: Infinity, effects: { blink: true } }] }] },
      'elements[0].rules[0].value',
    ],
    [
      { elements: [{ ...tank, rules: [{ op: '>', value: 1, effects: {} }] }] },
      'elements[0].rules[0].effects',
    ],
    [
      { elements: [{ ...tank, rules: [{ op: 'between', value: 3, value2: 2, effects: { blink: true } }] }] },
      'elements[0].rules[0].value2',
    ],
    [
      { elements: [{ ...tank, rules: [{ op: '>', value: 1, effects: { rotate: 720 } }] }] },
      'elements[0].rules[0].effects.rotate',
    ],
    [
      { elements: [{ ...tank, rules: Array(SCREEN_LIMITS.rules + 1).fill(tank.rules[0]) }] },
      'elements[0].rules',
    ],
    [{ elements: [{ ...tank, binding: null }] }, 'elements[0].binding'],
    [{ elements: [{ ...pipe, binding: null }] }, 'elements[0].binding'],
    [
      {
        elements: [
          {
            ...pipe,
            config: {
              points: [
                { x: 0, y: 0 },
                { x: 81, y: 0 },
              ],
            },
          },
        ],
      },
      'elements[0].config.points[1].x',
    ],
    [{ elements: [{ ...pipe, config: { points: [{ x: 0, y: 0 }] } }] }, 'elements[0].config.points'],
    [{ elements: [{ ...label, config: { text: 'x'.repeat(501) } }] }, 'elements[0].config.text'],
    [{ elements: [{ ...label, config: { decimals: 7 } }] }, 'elements[0].config.decimals'],
    [{ elements: [{ ...sw, config: { onCommand: 'reboot' } }] }, 'elements[0].config.onCommand'],
    [{ elements: [{ ...sw, config: { onCommand: 'x'.repeat(33) } }] }, 'elements[0].config.onCommand'],
    [{ elements: [{ ...sw, config: {} }] }, 'elements[0].config.onCommand'],
    [
      {
        elements: [
          { id: 'i', type: 'image', x: 0, y: 0, w: 50, h: 50, config: { url: 'javascript:alert(1)' } },
        ],
      },
      'elements[0].config.url',
    ],
  ])('refuses %j naming %s', (raw, field) => {
    expect(broken(raw)).toBe(field);
  });

  it('allows at most 500 elements', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `e${i}`, type: 'rect', x: 0, y: 0, w: 20, h: 20 }));
    expect(ok({ elements: many(500) }).elements).toHaveLength(500);
    expect(broken({ elements: many(501) })).toBe('elements');
  });

  it('never throws on a hostile body', () => {
    const hostile = {
      get elements() {
        throw new Error('boom');
      },
    };
    expect(checkScreenBody(hostile)).toEqual({ ok: false, field: 'body', reason: 'object' });
  });

  it('has a message in both languages', () => {
    expect(messageFor('screenLeaseHeld', 'en', { user: 'ann', until: '10:00:00' })).toContain('ann');
    expect(messageFor('screenLeaseHeld', 'zh', { user: 'ann', until: '10:00:00' })).toContain('ann');
  });
});

describe('evaluateElement', () => {
  const body = ok(screen);
  const [t, p, line, text, s] = body.elements as [
    ScreenElement,
    ScreenElement,
    ScreenElement,
    ScreenElement,
    ScreenElement,
  ];
  const now = 1_700_000_000_000;
  const at = (value: unknown, ageS = 1): PointSample => ({ value, ts: now - ageS * 1000 });

  it('fills a tank from its value and colours it by the first matching rule', () => {
    const high = evaluateElement(t, at(4.8), now, 60);
    expect(high).toMatchObject({ quality: 'live', level: 0.96, fill: '#ff4d4f', blink: true, rule: 0 });
    // 4.5 matches both rule 0 (>= 4.5) and rule 1 (between 1 and 4.5): the first wins
    expect(evaluateElement(t, at(4.5), now, 60)).toMatchObject({ rule: 0, fill: '#ff4d4f' });
    expect(evaluateElement(t, at(2.5), now, 60)).toMatchObject({ rule: 1, fill: '#52c41a', blink: false });
    expect(evaluateElement(t, at(-3), now, 60)).toMatchObject({ rule: 2, level: 0 });
    expect(evaluateElement(t, at(9), now, 60).level).toBe(1);
  });

  it('writes a text with its unit and decimals', () => {
    expect(evaluateElement(text, at(12.3456), now, 60).text).toBe('液位 12.35 m');
    expect(evaluateElement(text, null, now, 60).text).toBe(`液位 ${NO_VALUE_TEXT}`);
  });

  it('turns a pump, flows a pipe and shows a switch on while the value is not zero', () => {
    expect(evaluateElement(p, at(1), now, 60).active).toBe(true);
    expect(evaluateElement(p, at(0), now, 60).active).toBe(false);
    expect(evaluateElement(line, at(true), now, 60).active).toBe(true);
    expect(evaluateElement(line, at(false), now, 60).active).toBe(false);
    expect(evaluateElement(s, at(1), now, 60)).toMatchObject({ active: true, text: '泵' });
  });

  it('greys a stale value, keeps its text and age, and stops everything that moves', () => {
    const stale = evaluateElement(t, at(4.8, 61), now, 60);
    expect(stale).toMatchObject({
      quality: 'stale',
      value: 4.8,
      ageSeconds: 61,
      fill: STALE_GREY,
      blink: false,
      rule: null,
    });
    expect(evaluateElement(p, at(1, 61), now, 60).active).toBe(false);
    // exactly at the limit still live
    expect(evaluateElement(t, at(4.8, 60), now, 60).quality).toBe('live');
  });

  it('has no quality without a usable value', () => {
    for (const sample of [null, at(null), at('abc'), at(Number.NaN), { value: 1, ts: Number.NaN }]) {
      const v = evaluateElement(t, sample, now, 60);
      expect(v).toMatchObject({ quality: 'none', value: null, fill: STALE_GREY, level: null, active: false });
    }
  });

  it('draws an unbound element as it is', () => {
    const plain = ok({
      elements: [{ id: 'r', type: 'rect', x: 0, y: 0, w: 20, h: 20, style: { fill: '#123' } }],
    }).elements[0]!;
    expect(evaluateElement(plain, null, now, 60)).toMatchObject({
      bound: false,
      quality: 'none',
      fill: '#123',
    });
  });

  it('a rule can hide an element; a hidden element stays hidden', () => {
    const hiding = ok({
      elements: [
        {
          ...pump,
          rules: [
            { op: '>', value: 90, effects: { visible: true } },
            { op: '>=', value: 0, effects: { visible: false } },
          ],
        },
      ],
    }).elements[0]!;
    expect(evaluateElement(hiding, at(95), now, 60).visible).toBe(true);
    expect(evaluateElement(hiding, at(50), now, 60).visible).toBe(false);
    expect(evaluateElement({ ...hiding, hidden: true }, at(95), now, 60).visible).toBe(false);
  });
});

describe('editing', () => {
  it('adds, places, layers, locks and removes elements; undo gives the body back', () => {
    let seed = 0;
    const random = () => (seed = (seed + 0.137) % 1);
    let body = emptyScreen(800, 600);
    let h = historyOf(body);
    const a = addElement(body, 'tank', { x: 790, y: 590 }, random);
    body = a.body;
    h = record(h, body);
    expect(body.elements[0]).toMatchObject({ x: 680, y: 400, w: 120, h: 200, z: 1 });
    const b = addElement(body, 'line', { x: 0, y: 0 }, random);
    body = placeElement(b.body, b.id, { x: 0, y: 0, w: 400, h: 40 });
    const line = body.elements[1]!;
    expect(line.type === 'line' && line.config.points).toEqual([
      { x: 0, y: 20 },
      { x: 400, y: 20 },
    ]);
    body = moveElementLayer(body, b.id, 'back');
    expect(body.elements.map((e) => e.z)).toEqual([2, 1]);
    body = setElementFlag(body, a.id, 'locked', true);
    expect(placeElement(body, a.id, { x: 0, y: 0, w: 50, h: 50 })).toEqual(body);
    expect(ok(body)).toEqual(body);
    body = removeElement(body, a.id);
    expect(body.elements.map((e) => e.id)).toEqual([b.id]);
    expect(undo(h).present.elements).toEqual([]);
  });

  it('rebinds a template onto a device, unbinding what has no point', () => {
    const body = ok(screen);
    const moved = rebindScreen(body, (b) => (b.field === 'f1' ? { itemId: 99, field: 'f3' } : null));
    expect(moved.elements[0]!.binding).toEqual({ itemId: 99, field: 'f3' });
    expect(moved.elements[1]!.binding).toBeNull();
    expect(ok(moved)).toEqual(moved);
  });
});

// ---------------------------------------------------------------- properties

const colour = fc.constantFrom('', '#fff', '#12345678', 'rgb(1, 2, 3)', 'red', 'url(x)');
const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const anyNumber = fc.oneof(finite, fc.constant(Number.NaN), fc.constant(Infinity), fc.integer());
const rule = fc.record({
  op: fc.constantFrom(...RULE_OPS, '!='),
  value: anyNumber,
  value2: fc.option(anyNumber, { nil: undefined }),
  effects: fc.record(
    {
      color: colour,
      fill: colour,
      rotate: fc.integer({ min: -400, max: 400 }),
      visible: fc.boolean(),
      blink: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
});
const element = fc.record(
  {
    id: fc.oneof(fc.stringMatching(/^[a-z0-9]{1,6}$/), fc.string()),
    type: fc.constantFrom(...SCREEN_ELEMENT_TYPES, 'rocket'),
    x: fc.integer({ min: -10, max: 2000 }),
    y: fc.integer({ min: -10, max: 1200 }),
    w: fc.integer({ min: 0, max: 600 }),
    h: fc.integer({ min: 0, max: 600 }),
    z: fc.integer({ min: -1, max: 10 }),
    locked: fc.boolean(),
    hidden: fc.oneof(fc.boolean(), fc.constant('yes')),
    style: fc.record(
      { fill: colour, stroke: colour, fontSize: fc.integer({ min: 0, max: 500 }) },
      { requiredKeys: [] },
    ),
    binding: fc.option(
      fc.record({ itemId: fc.integer({ min: -1, max: 50 }), field: fc.constantFrom('f1', 'f2', 'x') }),
    ),
    rules: fc.array(rule, { maxLength: 4 }),
    config: fc.record(
      {
        min: anyNumber,
        max: anyNumber,
        text: fc.string({ maxLength: 20 }),
        unit: fc.string({ maxLength: 20 }),
        decimals: fc.integer({ min: -1, max: 8 }),
        onCommand: fc.constantFrom('', 'on', 'reboot'),
        offCommand: fc.constantFrom('', 'off'),
        flow: fc.constantFrom('off', 'on', 'value', 'fast'),
        points: fc.array(
          fc.record({ x: fc.integer({ min: -5, max: 300 }), y: fc.integer({ min: -5, max: 300 }) }),
          {
            maxLength: 5,
          },
        ),
        url: fc.constantFrom('', '/files/a.png', 'javascript:x'),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['id', 'type', 'x', 'y', 'w', 'h'] },
);
const rawBody = fc.record(
  {
    width: fc.integer({ min: 300, max: 2000 }),
    height: fc.integer({ min: 300, max: 1200 }),
    background: colour,
    staleSeconds: fc.integer({ min: 0, max: 100 }),
    elements: fc.array(element, { maxLength: 8 }),
  },
  { requiredKeys: [] },
);

describe('properties', () => {
  it('the check never throws; a checked body survives a JSON round trip and checks to itself', () => {
    fc.assert(
      fc.property(fc.oneof(rawBody, fc.anything()), (raw) => {
        const r = checkScreenBody(raw);
        if (!r.ok) {
          expect(typeof r.field).toBe('string');
          return;
        }
        const again = JSON.parse(JSON.stringify(r.body)) as unknown;
        expect(again).toEqual(r.body);
        expect(checkScreenBody(again)).toEqual({ ok: true, body: r.body });
      }),
      { numRuns: 400 },
    );
  });

  it('some random bodies pass (the generator reaches the valid space)', () => {
    const passing = fc.sample(rawBody, 300).filter((raw) => checkScreenBody(raw).ok);
    expect(passing.length).toBeGreaterThan(10);
  });

  const okRule = fc
    .record({
      op: fc.constantFrom(...RULE_OPS),
      value: fc.integer({ min: -100, max: 100 }),
      span: fc.integer({ min: 0, max: 50 }),
      fill: fc.constantFrom('#f00', '#0f0', '#00f'),
    })
    .map(
      (r): ThresholdRule =>
        r.op === 'between'
          ? { op: r.op, value: r.value, value2: r.value + r.span, effects: { fill: r.fill } }
          : { op: r.op, value: r.value, effects: { fill: r.fill } },
    );

  it('threshold rules: the first matching rule wins, and no earlier rule matches', () => {
    fc.assert(
      fc.property(fc.array(okRule, { maxLength: 8 }), fc.integer({ min: -200, max: 200 }), (rules, value) => {
        const body = ok({ elements: [{ ...pump, rules }] });
        const e = body.elements[0]!;
        const view = evaluateElement(e, { value, ts: 0 }, 0, 60);
        const i = firstMatch(rules, value);
        expect(view.rule).toBe(i);
        if (i === null) {
          expect(view.fill).toBe('');
          return;
        }
        expect(view.fill).toBe(rules[i]!.effects.fill);
        // a rule before it would also have matched: not the first
        const before = rules.slice(0, i).some((r) => firstMatch([r], value) === 0);
        expect(before).toBe(false);
      }),
    );
  });

  it('stale: live exactly while the age is within the limit; never coloured when not live', () => {
    const e = ok(screen).elements[0]!;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -5_000, max: 10_000_000 }),
        fc.integer({ min: 5, max: 3600 }),
        finite,
        (now, age, stale, value) => {
          const view = evaluateElement(e, { value, ts: now - age }, now, stale);
          expect(view.quality).toBe(age > stale * 1000 ? 'stale' : 'live');
          if (view.quality !== 'live') {
            expect(view.fill).toBe(STALE_GREY);
            expect(view.blink).toBe(false);
            expect(view.rule).toBeNull();
          }
          expect(view.ageSeconds).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('numericValue answers a finite number or null', () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const n = numericValue(v);
        expect(n === null || Number.isFinite(n)).toBe(true);
      }),
    );
  });
});
