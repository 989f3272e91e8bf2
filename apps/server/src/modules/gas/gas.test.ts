import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCaller, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeMember, makeRole } from '../users/test-support';
import { gasComponents, gasProducts, pureGases } from './tables';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Gas works');
});
afterAll(() => t.close());

const call = apiCaller(
  () => t,
  '/gas',
  () => a.admin.token,
);

const rowsOf = async (
  table: typeof pureGases | typeof gasProducts | typeof gasComponents,
  companyId = a.id,
) => Number((await t.db.select({ n: count() }).from(table).where(eq(table.companyId, companyId)))[0]!.n);

/** The worked example of domain-facts.md: 10 % CO2 in N2, 10 L, 10 MPa, 20 °C. */
const recipe = {
  name: '10 % CO2 in N2',
  code: 'CO2-10',
  balance: 'N2',
  components: [{ component: 'CO2', fraction: 0.1 }],
  volumeL: 10,
  pressureMPa: 10,
  temperatureC: 20,
  z: 1,
};

describe('gas properties', () => {
  it('a company starts with the domain-facts molar masses, in its language, and edits its own', async () => {
    const zh = await makeCompany(t, '气体公司');
    const list = (await call('GET', '/component/list', undefined, zh.admin.token, 'zh')).data;
    expect(list.map((c: { formula: string }) => c.formula)).toEqual([
      'Ar',
      'C3H8',
      'CH4',
      'CO',
      'CO2',
      'H2',
      'He',
      'N2',
      'NO',
      'O2',
      'SO2',
    ]);
    expect(list.find((c: { formula: string }) => c.formula === 'CO2')).toMatchObject({
      name: '二氧化碳',
      molarMass: 44.009,
      builtIn: true,
      usedBy: 0,
    });
    // a second read writes nothing more
    await call('GET', '/component/list', undefined, zh.admin.token, 'zh');
    expect(await rowsOf(gasComponents, zh.id)).toBe(11);

    const added = await call('POST', '/component/save', { formula: 'Xe', name: 'Xenon', molarMass: 131.29 });
    expect(added.code).toBe(0);
    const taken = await call('POST', '/component/save', { formula: 'Xe', name: 'again', molarMass: 1 });
    expect(taken).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'formula' } });
    expect(taken.message).toBe('A component with the formula Xe already exists');
    for (const [body, field] of [
      [{ formula: '', name: 'x', molarMass: 1 }, 'formula'],
      [{ formula: '2X', name: 'x', molarMass: 1 }, 'formula'],
      [{ formula: 'Kr', name: ' ', molarMass: 1 }, 'name'],
      [{ formula: 'Kr', name: 'Krypton', molarMass: 0 }, 'molarMass'],
      [{ formula: 'Kr', name: 'Krypton', molarMass: -83.8 }, 'molarMass'],
    ] as const) {
      expect((await call('POST', '/component/save', body)).data, JSON.stringify(body)).toEqual({ field });
    }
    expect(
      (await call('POST', '/component/save', { formula: 'Kr', name: 'Krypton', molarMass: 0 })).message,
    ).toBe('molarMass must be greater than 0');
    // the edited molar mass is the one calculations use
    const xe = added.data.id;
    expect(
      (await call('POST', '/component/save', { id: xe, formula: 'Xe', name: 'Xenon', molarMass: 131.293 }))
        .code,
    ).toBe(0);
    const [row] = await t.db.select().from(gasComponents).where(eq(gasComponents.id, xe));
    expect(row).toMatchObject({ molarMass: 131.293, builtIn: false, companyId: a.id });
    expect((await call('POST', '/component/delete', { id: xe })).code).toBe(0);
  });

  it('a component in use keeps its formula and is not deleted, naming who uses it', async () => {
    const list = (await call('GET', '/component/list')).data as Array<{
      id: number;
      formula: string;
      usedBy: number;
    }>;
    const o2 = list.find((c) => c.formula === 'O2')!;
    await call('POST', '/pure/save', {
      name: 'N2 for O2 test',
      main: 'N2',
      impurities: [{ component: 'O2', umolPerMol: 3 }],
    });
    const refused = await call('POST', '/component/delete', { id: o2.id });
    expect(refused).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'id' } });
    expect(refused.message).toBe('O2 is used by N2 for O2 test: take it out there first');
    const renamed = await call('POST', '/component/save', {
      id: o2.id,
      formula: 'O3',
      name: 'x',
      molarMass: 48,
    });
    expect(renamed).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'formula' } });
    const after = (await call('GET', '/component/list')).data as Array<{ formula: string; usedBy: number }>;
    expect(after.find((c) => c.formula === 'O2')).toMatchObject({ usedBy: 1 });
    expect(after.some((c) => c.formula === 'O3')).toBe(false);
  });
});

describe('pure gases and products', () => {
  it('a purity table: impurities in µmol/mol, the main component the rest; bad rows named, nothing written', async () => {
    const before = await rowsOf(pureGases);
    const saved = await call('POST', '/pure/save', {
      name: 'CO2 99.995 %',
      main: 'CO2',
      impurities: [{ component: 'N2', umolPerMol: 50 }],
      supplier: 'Acme gases',
      lot: 'L-2026-11',
      cylinder: 'C-001',
    });
    expect(saved.code).toBe(0);
    const page = (await call('GET', '/pure/list?keyword=99.995')).data;
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ name: 'CO2 99.995 %', main: 'CO2', supplier: 'Acme gases' });
    expect(page.list[0].purity).toBeCloseTo(0.99995, 12);

    for (const [impurities, field] of [
      [[{ component: 'Qq', umolPerMol: 5 }], 'impurities[0].component'],
      [
        [
          { component: 'O2', umolPerMol: 5 },
          { component: 'O2', umolPerMol: 1 },
        ],
        'impurities[1].component',
      ],
      [[{ component: 'CO2', umolPerMol: 5 }], 'impurities[0].component'],
      [[{ component: 'O2', umolPerMol: 0 }], 'impurities[0].umolPerMol'],
      [
        [
          { component: 'O2', umolPerMol: 600_000 },
          { component: 'N2', umolPerMol: 400_000 },
        ],
        'impurities',
      ],
    ] as const) {
      const res = await call('POST', '/pure/save', { name: 'bad', main: 'CO2', impurities });
      expect(res.data, JSON.stringify(impurities)).toEqual({ field });
    }
    expect(await rowsOf(pureGases)).toBe(before + 1);
    const twice = await call('POST', '/pure/save', { name: 'CO2 99.995 %', main: 'CO2', impurities: [] });
    expect(twice).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'name' } });
  });

  it('a recipe: the balance gas is the rest; fractions out of range or past 100 % are named', async () => {
    const saved = await call('POST', '/product/save', recipe);
    expect(saved.code).toBe(0);
    const product = (await call('GET', `/product/get?id=${saved.data.id}`)).data;
    expect(product).toMatchObject({ ...recipe, notes: '' });
    expect((await call('GET', '/product/list?keyword=CO2-10')).data.total).toBe(1);

    const before = await rowsOf(gasProducts);
    const cases: Array<[object, string, string?]> = [
      [{ components: [{ component: 'CO2', fraction: 1.2 }] }, 'components[0].fraction'],
      [{ components: [{ component: 'CO2', fraction: 0 }] }, 'components[0].fraction'],
      [
        {
          components: [
            { component: 'CO2', fraction: 0.6 },
            { component: 'O2', fraction: 0.4 },
          ],
        },
        'components',
        'The components add up to 100 %: nothing is left for the balance gas',
      ],
      [
        { components: [{ component: 'N2', fraction: 0.1 }] },
        'components[0].component',
        'components[0].component: N2 is listed twice',
      ],
      [{ balance: 'Qq' }, 'balance'],
      [{ volumeL: 0 }, 'volumeL'],
      [{ pressureMPa: -1 }, 'pressureMPa'],
      [{ z: 0 }, 'z'],
      [{ temperatureC: -300 }, 'temperatureC'],
      [{ name: '' }, 'name'],
    ];
    for (const [change, field, message] of cases) {
      const res = await call('POST', '/product/save', { ...recipe, name: 'bad', ...change });
      expect(res.data, JSON.stringify(change)).toEqual({ field });
      if (message) expect(res.message).toBe(message);
    }
    expect(await rowsOf(gasProducts)).toBe(before);
  });

  it('paging and deleting', async () => {
    for (const n of [1, 2, 3])
      await call('POST', '/product/save', { ...recipe, name: `paged ${n}`, code: 'PAGED' });
    const first = (await call('GET', '/product/list?keyword=PAGED&pageSize=2')).data;
    expect(first).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 });
    expect(first.list.map((p: { name: string }) => p.name)).toEqual(['paged 1', 'paged 2']);
    const second = (await call('GET', '/product/list?keyword=PAGED&pageSize=2&pageNum=2')).data;
    expect(second.list.map((p: { name: string }) => p.name)).toEqual(['paged 3']);
    expect((await call('POST', '/product/delete', { id: second.list[0].id })).code).toBe(0);
    expect((await call('POST', '/product/delete', { id: second.list[0].id })).code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await call('GET', '/product/list?keyword=PAGED')).data.total).toBe(2);
  });
});

describe('component calculation (domain-facts worked example)', () => {
  it('forward: 41.028 mol ideal, 42.275 mol at Z = 0.9705, each mass to the centigram', async () => {
    const ideal = await call('POST', '/calc/fill', recipe);
    expect(ideal.code).toBe(0);
    expect(ideal.data.totalMol).toBeCloseTo(41.028, 3);
    const mass = (data: { components: Array<{ component: string; massG: number }> }, c: string) =>
      data.components.find((x) => x.component === c)!.massG;
    expect(mass(ideal.data, 'CO2')).toBeCloseTo(180.56, 2);
    expect(mass(ideal.data, 'N2')).toBeCloseTo(1034.41, 2);
    // the balance gas last, its fraction the rest
    expect(ideal.data.components.at(-1)).toMatchObject({ component: 'N2', fraction: 0.9 });
    expect(ideal.data.molarMass).toBeCloseTo(0.1 * 44.009 + 0.9 * 28.014, 9);

    const real = (await call('POST', '/calc/fill', { ...recipe, z: 0.9705 })).data;
    expect(real.totalMol).toBeCloseTo(42.275, 3);
    expect(mass(real, 'CO2')).toBeCloseTo(186.05, 2);
    // domain-facts worked from n rounded to 42.275 mol (1065.86 g); the unrounded n gives 1065.855
    expect(Math.abs(mass(real, 'N2') - 1065.86)).toBeLessThanOrEqual(0.011);
  });

  it('inverse: the weighed parents certify CO2 0.099998, N2 0.899993, O2 9.0 µmol/mol with U (k = 2)', async () => {
    await call('POST', '/pure/save', {
      name: 'N2 99.999 %',
      main: 'N2',
      impurities: [{ component: 'O2', umolPerMol: 10 }],
    });
    const pure = (await call('GET', '/pure/list?pageSize=100')).data.list as Array<{
      id: number;
      name: string;
    }>;
    const id = (name: string) => pure.find((p) => p.name === name)!.id;
    const res = await call('POST', '/calc/certify', {
      parents: [
        { pureGasId: id('CO2 99.995 %'), massG: 186.05, uMassG: 0.005 },
        { pureGasId: id('N2 99.999 %'), massG: 1065.86, uMassG: 0.005 },
      ],
    });
    expect(res.code).toBe(0);
    const byName = Object.fromEntries(
      (res.data.components as Array<{ component: string; fraction: number; expanded: number }>).map((c) => [
        c.component,
        c,
      ]),
    );
    expect(byName.CO2!.fraction).toBeCloseTo(0.099998, 6);
    expect(byName.N2!.fraction).toBeCloseTo(0.899993, 6);
    expect(byName.O2!.fraction * 1e6).toBeCloseTo(9.0, 1);
    // the main components first
    expect(res.data.components.map((c: { component: string }) => c.component)).toEqual(['N2', 'CO2', 'O2']);
    // the weighing's uncertainty reaches the certified values: U > 0, and a tenfold worse scale makes it tenfold
    expect(byName.CO2!.expanded).toBeGreaterThan(0);
    const worse = await call('POST', '/calc/certify', {
      parents: [
        { pureGasId: id('CO2 99.995 %'), massG: 186.05, uMassG: 0.05 },
        { pureGasId: id('N2 99.999 %'), massG: 1065.86, uMassG: 0.05 },
      ],
    });
    const worseCo2 = worse.data.components.find((c: { component: string }) => c.component === 'CO2');
    expect(worseCo2.expanded / byName.CO2!.expanded).toBeCloseTo(10, 3);

    const refused = await call('POST', '/calc/certify', {
      parents: [
        { pureGasId: id('CO2 99.995 %'), massG: 186.05 },
        { pureGasId: id('N2 99.999 %'), massG: -1 },
      ],
    });
    expect(refused).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'parents[1].massG' } });
    expect(refused.message).toBe('parents[1].massG must be greater than 0');
    expect((await call('POST', '/calc/certify', { parents: [] })).data).toEqual({ field: 'parents' });
  });

  it('the company’s own molar mass is the one calculated with', async () => {
    const other = await makeCompany(t, 'Heavy CO2');
    const list = (await call('GET', '/component/list', undefined, other.admin.token)).data as Array<{
      id: number;
      formula: string;
    }>;
    const co2 = list.find((c) => c.formula === 'CO2')!;
    await call(
      'POST',
      '/component/save',
      { id: co2.id, formula: 'CO2', name: 'CO2', molarMass: 88.018 },
      other.admin.token,
    );
    const doubled = (await call('POST', '/calc/fill', recipe, other.admin.token)).data;
    const ours = (await call('POST', '/calc/fill', recipe)).data;
    const co2Mass = (d: { components: Array<{ component: string; massG: number }> }) =>
      d.components.find((c) => c.component === 'CO2')!.massG;
    expect(co2Mass(doubled) / co2Mass(ours)).toBeCloseTo(2, 9);
  });
});

describe('a refused request writes nothing', () => {
  it('not even the company’s default components (the fuzzer found it)', async () => {
    const fresh = await makeCompany(t, 'Fresh gas');
    const res = await call('POST', '/calc/fill', { ...recipe, balance: '-1e15' }, fresh.admin.token);
    expect(res).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'balance' } });
    const saved = await call(
      'POST',
      '/pure/save',
      { name: 'x', main: 'Qq', impurities: [] },
      fresh.admin.token,
    );
    expect(saved.data).toEqual({ field: 'main' });
    expect(await rowsOf(gasComponents, fresh.id)).toBe(0);
    // an accepted one writes them
    expect((await call('POST', '/calc/fill', recipe, fresh.admin.token)).code).toBe(0);
    expect(await rowsOf(gasComponents, fresh.id)).toBe(11);
  });
});

describe('permissions', () => {
  it('each page’s code guards its routes: a role with the calculation only cannot edit recipes', async () => {
    const calcOnly = await makeMember(t, a, [
      await makeRole(t, a.id, ['gas_modulating', 'gm_component_cal']),
    ]);
    const product = (await call('GET', '/product/list?keyword=CO2-10')).data.list[0];
    expect((await call('GET', `/product/get?id=${product.id}`, undefined, calcOnly.token)).code).toBe(0);
    expect((await call('POST', '/calc/fill', recipe, calcOnly.token)).code).toBe(0);
    // the pickers of the page: components and pure gases are read, never written
    expect((await call('GET', '/component/list', undefined, calcOnly.token)).code).toBe(0);
    expect((await call('GET', '/pure/list', undefined, calcOnly.token)).code).toBe(0);
    for (const [method, url, body] of [
      ['POST', '/product/save', { ...recipe, name: 'sneaky' }],
      ['POST', '/product/delete', { id: product.id }],
      ['GET', '/product/list', undefined],
      ['POST', '/pure/save', { name: 'x', main: 'N2', impurities: [] }],
      ['POST', '/component/save', { formula: 'Kr', name: 'Krypton', molarMass: 83.798 }],
    ] as const) {
      expect((await call(method, url, body, calcOnly.token)).code, url).toBe(ERROR_CODES.FORBIDDEN);
    }
    expect((await call('GET', '/component/list', undefined, a.limited.token)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
  });
});

describe('purity uncertainties', () => {
  it('carries the purity analysis uncertainty of an impurity into the certified U', async () => {
    const save = (name: string, uUmolPerMol?: number) =>
      call('POST', '/pure/save', {
        name,
        main: 'N2',
        impurities: [
          { component: 'O2', umolPerMol: 10, ...(uUmolPerMol === undefined ? {} : { uUmolPerMol }) },
        ],
      });
    const co2 = (await call('POST', '/pure/save', { name: 'CO2 for U', main: 'CO2', impurities: [] })).data
      .id;
    const plain = (await save('N2 without u')).data.id;
    const stated = (await save('N2 with u', 1)).data.id;
    const o2Of = async (n2: number) => {
      const { data } = await call('POST', '/calc/certify', {
        parents: [
          { pureGasId: co2, massG: 186.05 },
          { pureGasId: n2, massG: 1065.86 },
        ],
      });
      return data.components.find((c: { component: string }) => c.component === 'O2');
    };
    // no weighing uncertainty and none stated: nothing to propagate
    expect((await o2Of(plain)).expanded).toBe(0);
    // u(O2 in the N2) = 1 µmol/mol; the N2 is 90 % of the mixture: U = 2 × 0.9 µmol/mol
    const o2 = await o2Of(stated);
    expect(o2.fraction * 1e6).toBeCloseTo(9.0, 1);
    expect(o2.expanded * 1e6).toBeCloseTo(1.8, 2);
    const list = (await call('GET', '/pure/list?keyword=N2 with u')).data.list;
    expect(list[0].impurities).toEqual([{ component: 'O2', umolPerMol: 10, uUmolPerMol: 1 }]);
  });

  it('refuses an uncertainty below 0 or above the impurity itself, naming the field', async () => {
    for (const u of [-1, 11]) {
      const res = await call('POST', '/pure/save', {
        name: `N2 bad u ${u}`,
        main: 'N2',
        impurities: [{ component: 'O2', umolPerMol: 10, uUmolPerMol: u }],
      });
      expect(res).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'impurities[0].uUmolPerMol' },
      });
    }
    expect((await call('GET', '/pure/list?keyword=N2 bad u')).data.total).toBe(0);
  });
});
