import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAndThumbnail } from '../../platform/images';
import {
  apiCaller,
  bearer,
  buildTestApp,
  makeCompany,
  ok,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { inflatedStreams } from '../../test/pdf';
import { setCompanyLogo } from '../companies/logo';
import { makePng } from '../companies/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { gasCylinders, gasReferenceMaterials } from './tables';

let t: TestApp;
let a: TestCompany;
let co2: number;
let n2: number;
let productId: number;

const call = apiCaller(
  () => t,
  '/gas',
  () => a.admin.token,
);

/** The worked example of domain-facts.md: 186.05 g CO2 and 1065.86 g N2. */
const weighed = () => [
  { pureGasId: co2, massG: 186.05, uMassG: 0.005 },
  { pureGasId: n2, massG: 1065.86, uMassG: 0.01 },
];

const cylinderCount = async () =>
  Number(
    (await t.db.select({ n: count() }).from(gasCylinders).where(eq(gasCylinders.companyId, a.id)))[0]!.n,
  );

async function newCylinder(serialNumber: string) {
  const res = await call('POST', '/cylinder/save', { serialNumber, productId, parents: weighed() });
  expect(res.code).toBe(0);
  return res.data.id as number;
}

async function newReference(name: string) {
  const res = await call('POST', '/reference/save', {
    name,
    certificateNo: `GBW(E)${name.length}0601`,
    issuer: 'NIM',
    balance: 'N2',
    components: [{ component: 'CO2', fraction: 0.1001, expanded: 0.0002 }],
    expiresOn: '2028-06-30',
  });
  expect(res.code).toBe(0);
  return res.data.id as number;
}

/** An analysis that agrees with the worked example's gravimetric 0.099998. */
const agreeing = (referenceMaterialId?: number) => ({
  analyses: [{ component: 'CO2', analysed: 0.10001, analysedU: 0.0002, referenceMaterialId }],
});

const certificateBody = (id: number, referenceIds: number[] = []) => ({
  id,
  certifiedOn: '2026-11-29',
  validMonths: 12,
  pressureMPa: 9.8,
  tempMinC: -10,
  tempMaxC: 40,
  laboratory: 'Gas works calibration laboratory',
  referenceIds,
});

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Cylinder works');
  co2 = (
    await call('POST', '/pure/save', {
      name: 'CO2 4.5',
      main: 'CO2',
      impurities: [{ component: 'N2', umolPerMol: 50 }],
    })
  ).data.id;
  n2 = (
    await call('POST', '/pure/save', {
      name: 'N2 5.0',
      main: 'N2',
      impurities: [{ component: 'O2', umolPerMol: 10 }],
    })
  ).data.id;
  productId = (
    await call('POST', '/product/save', {
      name: '10 % CO2 in N2',
      balance: 'N2',
      components: [{ component: 'CO2', fraction: 0.1 }],
      volumeL: 10,
      pressureMPa: 10,
      temperatureC: 20,
      z: 0.9705,
    })
  ).data.id;
});
afterAll(() => t.close());

describe('filled cylinders', () => {
  it('saves the weighed parents with the gravimetric composition of the worked example', async () => {
    const id = await newCylinder('CY-0001');
    const { data } = await call('GET', `/cylinder/get?id=${id}`);
    expect(data).toMatchObject({
      serialNumber: 'CY-0001',
      productId,
      productName: '10 % CO2 in N2',
      balance: 'N2',
      status: 'weighed',
      analyses: [],
      certificate: null,
      parents: [
        { pureGasId: co2, name: 'CO2 4.5', massG: 186.05, uMassG: 0.005 },
        { pureGasId: n2, name: 'N2 5.0', massG: 1065.86, uMassG: 0.01 },
      ],
    });
    const value = (c: string) => data.values.find((v: { component: string }) => v.component === c);
    expect(value('CO2').fraction).toBeCloseTo(0.099998, 6);
    expect(value('N2').fraction).toBeCloseTo(0.899993, 6);
    expect(value('O2').fraction * 1e6).toBeCloseTo(9.0, 1);
    expect(value('CO2').expanded).toBeGreaterThan(0);
    const list = (await call('GET', '/cylinder/list?keyword=CY-0001')).data;
    expect(list.total).toBe(1);
    expect(list.list[0].id).toBe(id);
  });

  it('refuses bad input field by field and writes nothing', async () => {
    await newCylinder('CY-TAKEN');
    const before = await cylinderCount();
    const cases: Array<[object, string, number]> = [
      [{ serialNumber: 'CY-TAKEN', parents: weighed() }, 'serialNumber', ERROR_CODES.CONFLICT],
      [{ serialNumber: ' ', parents: weighed() }, 'serialNumber', ERROR_CODES.VALIDATION],
      [{ serialNumber: 'bad serial!', parents: weighed() }, 'serialNumber', ERROR_CODES.VALIDATION],
      [{ serialNumber: 'CY-X', parents: [] }, 'parents', ERROR_CODES.VALIDATION],
      [{ serialNumber: 'CY-X', productId: 999_999, parents: weighed() }, 'productId', ERROR_CODES.NOT_FOUND],
      [
        { serialNumber: 'CY-X', parents: [{ pureGasId: co2, massG: -1 }] },
        'parents[0].massG',
        ERROR_CODES.VALIDATION,
      ],
    ];
    for (const [body, field, code] of cases) {
      const res = await call('POST', '/cylinder/save', body);
      expect(res, field).toMatchObject({ code, data: { field } });
    }
    expect((await call('POST', '/cylinder/save', cases[0]![0])).message).toBe(
      'Cylinder CY-TAKEN already exists',
    );
    expect(await cylinderCount()).toBe(before);
  });

  it('filters the list by status and pages it', async () => {
    await newCylinder('CY-PAGE-1');
    await newCylinder('CY-PAGE-2');
    const page = (await call('GET', '/cylinder/list?keyword=CY-PAGE&pageSize=1&pageNum=2')).data;
    expect(page.total).toBe(2);
    expect(page.list).toHaveLength(1);
    expect(page.list[0].serialNumber).toBe('CY-PAGE-1');
    const passed = (await call('GET', '/cylinder/list?keyword=CY-PAGE&status=passed')).data;
    expect(passed.total).toBe(0);
  });
});

describe('quality control', () => {
  it('passes a cylinder whose analysis agrees, fails one that does not, and says by how much', async () => {
    const id = await newCylinder('CY-QC-1');
    const failed = await call('POST', '/cylinder/analysis', {
      id,
      analyses: [{ component: 'CO2', analysed: 0.1012, analysedU: 0.0002 }],
    });
    expect(failed.code).toBe(0);
    expect(failed.data.passed).toBe(false);
    expect(failed.data.results[0].ratio).toBeGreaterThan(1);
    expect((await call('GET', `/cylinder/get?id=${id}`)).data.status).toBe('failed');

    const passed = await call('POST', '/cylinder/analysis', { id, ...agreeing() });
    expect(passed.data.passed).toBe(true);
    const row = passed.data.results[0];
    expect(row.difference).toBeCloseTo(0.10001 - row.gravimetric, 12);
    expect(row.limit).toBeCloseTo(Math.hypot(row.gravimetricU, 0.0002), 12);
    const { data } = await call('GET', `/cylinder/get?id=${id}`);
    expect(data.status).toBe('passed');
    expect(data.analysedAt).not.toBeNull();
  });

  it('needs every recipe component analysed, and only components of the cylinder', async () => {
    const id = await newCylinder('CY-QC-2');
    const cases: Array<[object, string]> = [
      [{ analyses: [] }, 'analyses'],
      [{ analyses: [{ component: 'O2', analysed: 9e-6, analysedU: 1e-6 }] }, 'analyses'],
      [{ analyses: [{ component: 'CH4', analysed: 0.1, analysedU: 0.001 }] }, 'analyses[0].component'],
      [
        {
          analyses: [
            { component: 'CO2', analysed: 0.1, analysedU: 0.001 },
            { component: 'CO2', analysed: 0.1, analysedU: 0.001 },
          ],
        },
        'analyses[1].component',
      ],
      [{ analyses: [{ component: 'CO2', analysed: 1.2, analysedU: 0.001 }] }, 'analyses[0].analysed'],
      [{ analyses: [{ component: 'CO2', analysed: 0.1, analysedU: 0 }] }, 'analyses[0].analysedU'],
      [
        { analyses: [{ component: 'CO2', analysed: 0.1, analysedU: 0.001, referenceMaterialId: 999_999 }] },
        'analyses[0].referenceMaterialId',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/cylinder/analysis', { id, ...body });
      expect(res.data?.field, JSON.stringify(body)).toBe(field);
    }
    const missing = await call('POST', '/cylinder/analysis', { id, ...cases[1]![0] });
    expect(missing.message).toBe('analyses: CO2 of 10 % CO2 in N2 has no analysis result');
    const { data } = await call('GET', `/cylinder/get?id=${id}`);
    expect(data).toMatchObject({ status: 'weighed', analyses: [], analysedAt: null });
  });

  it('a member without quality control cannot enter results', async () => {
    const id = await newCylinder('CY-QC-3');
    const calcOnly = await makeMember(t, a, [
      await makeRole(t, a.id, ['gas_modulating', 'gm_component_cal']),
    ]);
    const res = await call('POST', '/cylinder/analysis', { id, ...agreeing() }, calcOnly.token);
    expect(res.code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await call('GET', `/cylinder/get?id=${id}`)).data.status).toBe('weighed');
  });
});

describe('certificates', () => {
  it('certifies only a passed cylinder, and then its record no longer changes', async () => {
    const reference = await newReference('CO2 in N2 10 %');
    const id = await newCylinder('CY-CERT-1');
    const early = await call('POST', '/cylinder/certify', certificateBody(id));
    expect(early).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Cylinder CY-CERT-1 has not passed quality control',
    });
    const pdfEarly = await t.app.inject({
      method: 'GET',
      url: `/general/gas/cylinder/certificate?id=${id}`,
      headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(pdfEarly.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Cylinder CY-CERT-1 has no certificate yet',
    });

    await call('POST', '/cylinder/analysis', { id, ...agreeing(reference) });
    const bad: Array<[Partial<ReturnType<typeof certificateBody>>, string]> = [
      [{ certifiedOn: '2026-02-30' }, 'certifiedOn'],
      [{ validMonths: 0 }, 'validMonths'],
      [{ validMonths: 121 }, 'validMonths'],
      [{ pressureMPa: 0 }, 'pressureMPa'],
      [{ tempMinC: 40, tempMaxC: 40 }, 'tempMaxC'],
      [{ laboratory: ' ' }, 'laboratory'],
      [{ referenceIds: [reference, 999_999] }, 'referenceIds[1]'],
    ];
    for (const [change, field] of bad) {
      const res = await call('POST', '/cylinder/certify', { ...certificateBody(id), ...change });
      expect(res.data?.field, field).toBe(field);
    }
    expect((await call('GET', `/cylinder/get?id=${id}`)).data.status).toBe('passed');

    const issued = await call('POST', '/cylinder/certify', certificateBody(id, [reference]));
    expect(issued.code).toBe(0);
    expect(issued.data).toMatchObject({
      number: `COA-20261129-${String(id).padStart(5, '0')}`,
      certifiedOn: '2026-11-29',
      expiresOn: '2027-11-29',
      referenceIds: [reference],
    });
    expect((await call('GET', `/cylinder/get?id=${id}`)).data.status).toBe('certified');

    for (const [url, body] of [
      ['/cylinder/analysis', { id, ...agreeing() }],
      ['/cylinder/certify', certificateBody(id)],
      ['/cylinder/delete', { id }],
    ] as const) {
      const res = await call('POST', url, body);
      expect(res, url).toMatchObject({
        code: ERROR_CODES.CONFLICT,
        message: 'Cylinder CY-CERT-1 is certified: its record can no longer be changed',
      });
    }
    expect((await call('GET', `/cylinder/get?id=${id}`)).data.certificate.number).toBe(issued.data.number);
    // the reference material it names is kept
    const del = await call('POST', '/reference/delete', { id: reference });
    expect(del).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'CO2 in N2 10 % is named by cylinder CY-CERT-1: it cannot be deleted',
    });
  });

  it('revokes a certificate with a reason; the cylinder is reissued under a new number naming the revoked one', async () => {
    const id = await newCylinder('CY-REVOKE-1');
    // nothing to revoke before a certificate
    expect(await call('POST', '/cylinder/revoke', { id, reason: 'typo' })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Cylinder CY-REVOKE-1 has no certificate yet',
    });
    await call('POST', '/cylinder/analysis', { id, ...agreeing() });
    const first = ok(await call('POST', '/cylinder/certify', certificateBody(id)));
    // a reason is needed, and a short one
    for (const reason of ['  ', 'x'.repeat(201)]) {
      expect((await call('POST', '/cylinder/revoke', { id, reason })).data?.field).toBe('reason');
    }
    expect((await call('GET', `/cylinder/get?id=${id}`)).data).toMatchObject({
      status: 'certified',
      certificate: { number: first.number },
      revokedCertificates: [],
    });
    // a user without gm_cert_report cannot revoke
    const limited = await call('POST', '/cylinder/revoke', { id, reason: 'no' }, a.limited.token);
    expect(limited.code).toBe(ERROR_CODES.FORBIDDEN);

    const revoked = ok(await call('POST', '/cylinder/revoke', { id, reason: 'Pressure stated wrong' }));
    expect(revoked).toMatchObject({
      status: 'passed',
      certificate: null,
      revokedCertificates: [
        { number: first.number, certifiedOn: '2026-11-29', reason: 'Pressure stated wrong' },
      ],
    });
    const [row] = await t.db.select().from(gasCylinders).where(eq(gasCylinders.id, id));
    expect(row!.revokedCertificates[0]).toMatchObject({ revokedBy: a.admin.id, pressureMPa: 9.8 });
    // no PDF of a revoked certificate
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/general/gas/cylinder/certificate?id=${id}`,
          headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
        })
      ).json(),
    ).toMatchObject({ code: ERROR_CODES.CONFLICT });

    // reissued the same day: a number of its own, naming the revoked one
    const second = ok(await call('POST', '/cylinder/certify', { ...certificateBody(id), pressureMPa: 12 }));
    expect(second).toMatchObject({ number: `${first.number}-R1`, replaces: first.number, pressureMPa: 12 });
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/general/gas/cylinder/certificate?id=${id}&lang=en`,
      headers: bearer(a.admin.token),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`${first.number}-R1-CY-REVOKE-1-en.pdf`);
  });

  it('prints the certificate as a PDF in Chinese and in English, with the company logo', async () => {
    const png = await makePng(120, 60);
    await setCompanyLogo(t.db, t.app.storage, a.id, await checkAndThumbnail('logo', png));
    const id = await newCylinder('CY-PDF-1');
    await call('POST', '/cylinder/analysis', { id, ...agreeing() });
    const { data: certificate } = await call('POST', '/cylinder/certify', certificateBody(id));
    const download = (lang: string) =>
      t.app.inject({
        method: 'GET',
        url: `/general/gas/cylinder/certificate?id=${id}&lang=${lang}`,
        headers: bearer(a.admin.token),
      });
    const zh = await download('zh');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('application/pdf');
    expect(zh.headers['content-disposition']).toContain(`${certificate.number}-CY-PDF-1-zh.pdf`);
    expect(zh.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // the subset font's ToUnicode map holds the characters drawn: 证 (U+8BC1) 书 (U+4E66)
    const zhText = inflatedStreams(zh.rawPayload).toLowerCase();
    for (const code of ['8bc1', '4e66']) expect(zhText).toContain(`<${code}>`);
    // the logo is drawn as an image
    expect(zh.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const en = await download('en');
    expect(en.statusCode).toBe(200);
    expect(inflatedStreams(en.rawPayload).toLowerCase()).not.toContain('<8bc1>');
  });

  it('deletes a cylinder without a certificate, after which it is gone', async () => {
    const id = await newCylinder('CY-DEL-1');
    expect((await call('POST', '/cylinder/delete', { id })).code).toBe(0);
    expect((await call('GET', `/cylinder/get?id=${id}`)).code).toBe(ERROR_CODES.NOT_FOUND);
  });
});

describe('reference materials', () => {
  it('saves, lists and deletes a reference material; bad input names its field', async () => {
    const id = await newReference('Ref to delete');
    const list = (await call('GET', '/reference/list?keyword=Ref to')).data;
    expect(list.list[0]).toMatchObject({ id, issuer: 'NIM', balance: 'N2', expiresOn: '2028-06-30' });
    const rows = async () =>
      Number(
        (
          await t.db
            .select({ n: count() })
            .from(gasReferenceMaterials)
            .where(eq(gasReferenceMaterials.companyId, a.id))
        )[0]!.n,
      );
    const before = await rows();
    const base = {
      name: 'Bad ref',
      certificateNo: 'GBW 1',
      balance: 'N2',
      components: [{ component: 'CO2', fraction: 0.1, expanded: 0.001 }],
      expiresOn: '2028-01-01',
    };
    const cases: Array<[object, string]> = [
      [{ name: ' ' }, 'name'],
      [{ certificateNo: '' }, 'certificateNo'],
      [{ balance: 'Zz' }, 'balance'],
      [{ components: [{ component: 'CO2', fraction: 1.5, expanded: 0.001 }] }, 'components[0].fraction'],
      [{ components: [{ component: 'CO2', fraction: 0.1, expanded: -1 }] }, 'components[0].expanded'],
      [{ expiresOn: '2028-13-01' }, 'expiresOn'],
      [{ name: 'Ref to delete' }, 'name'],
    ];
    for (const [change, field] of cases) {
      const res = await call('POST', '/reference/save', { ...base, ...change });
      expect(res.data?.field, field).toBe(field);
    }
    expect(await rows()).toBe(before);
    expect((await call('POST', '/reference/delete', { id })).code).toBe(0);
    expect(await rows()).toBe(before - 1);
  });
});
