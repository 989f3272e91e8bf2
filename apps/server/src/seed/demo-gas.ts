/**
 * Gas blending for the demo company: the parent gases and recipe of the domain-facts worked
 * example (10 % CO2 in N2) and a trace-level one, so the calculation page has something to open;
 * a reference material, and two cylinders of the worked example: one certified (its PDF can be
 * downloaded) and one waiting for its analysis.
 */
import type { DemoLang } from '../config';
import { issueCertificate, saveAnalysis, saveCylinder, saveReference } from '../modules/gas/cylinders';
import { saveProduct, savePureGas } from '../modules/gas/service';
import type { Db } from '../platform/db';

const TEXT = {
  zh: {
    co2: '二氧化碳 99.995 %',
    n2: '氮气 99.999 %',
    co: '一氧化碳 99.97 %',
    supplier: '演示气体供应商',
    mix: '10 % 二氧化碳/氮气',
    trace: '50 µmol/mol 一氧化碳/氮气',
    reference: '二氧化碳/氮气 10 % 标准物质',
    issuer: '中国计量科学研究院',
    laboratory: '演示气体校准实验室',
  },
  en: {
    co2: 'CO2 99.995 %',
    n2: 'N2 99.999 %',
    co: 'CO 99.97 %',
    supplier: 'Demo gas supplier',
    mix: '10 % CO2 in N2',
    trace: '50 µmol/mol CO in N2',
    reference: 'CO2 in N2 10 % reference',
    issuer: 'National Institute of Metrology',
    laboratory: 'Demo gas calibration laboratory',
  },
} as const;

export async function seedDemoGas(db: Db, opts: { companyId: number; lang: DemoLang }): Promise<void> {
  const text = TEXT[opts.lang];
  const { companyId, lang } = opts;
  const supplier = text.supplier;
  const co2 = await savePureGas(db, companyId, lang, {
    name: text.co2,
    main: 'CO2',
    impurities: [{ component: 'N2', umolPerMol: 50, uUmolPerMol: 5 }],
    supplier,
    lot: 'CO2-2611',
    cylinder: 'P-1001',
  });
  const n2 = await savePureGas(db, companyId, lang, {
    name: text.n2,
    main: 'N2',
    impurities: [{ component: 'O2', umolPerMol: 10, uUmolPerMol: 1 }],
    supplier,
    lot: 'N2-2611',
    cylinder: 'P-1002',
  });
  await savePureGas(db, companyId, lang, {
    name: text.co,
    main: 'CO',
    impurities: [
      { component: 'N2', umolPerMol: 200 },
      { component: 'CO2', umolPerMol: 100 },
    ],
    supplier,
    lot: 'CO-2610',
    cylinder: 'P-1003',
  });
  const fill = { volumeL: 10, pressureMPa: 10, temperatureC: 20 };
  const mix = await saveProduct(db, companyId, lang, {
    name: text.mix,
    code: 'CO2-N2-10',
    balance: 'N2',
    components: [{ component: 'CO2', fraction: 0.1 }],
    ...fill,
    z: 0.9705,
  });
  await saveProduct(db, companyId, lang, {
    name: text.trace,
    code: 'CO-N2-50PPM',
    balance: 'N2',
    components: [{ component: 'CO', fraction: 50e-6 }],
    ...fill,
    z: 1,
  });

  const reference = await saveReference(db, companyId, lang, {
    name: text.reference,
    certificateNo: 'GBW(E)060123',
    issuer: text.issuer,
    balance: 'N2',
    components: [{ component: 'CO2', fraction: 0.1001, expanded: 0.0002 }],
    expiresOn: '2028-06-30',
  });
  // the worked example's weighing (domain-facts.md), on a balance read to 0.01 g
  const parents = [
    { pureGasId: co2.id, massG: 186.05, uMassG: 0.005 },
    { pureGasId: n2.id, massG: 1065.86, uMassG: 0.005 },
  ];
  const certified = await saveCylinder(db, companyId, lang, {
    serialNumber: 'DEMO-CY-0001',
    productId: mix.id,
    parents,
  });
  await saveAnalysis(db, companyId, {
    id: certified.id,
    analyses: [{ component: 'CO2', analysed: 0.10002, analysedU: 0.0002, referenceMaterialId: reference.id }],
  });
  await issueCertificate(db, companyId, {
    id: certified.id,
    certifiedOn: '2026-11-02',
    validMonths: 12,
    pressureMPa: 9.8,
    tempMinC: -10,
    tempMaxC: 40,
    laboratory: text.laboratory,
    referenceIds: [reference.id],
  });
  await saveCylinder(db, companyId, lang, { serialNumber: 'DEMO-CY-0002', productId: mix.id, parents });
}
