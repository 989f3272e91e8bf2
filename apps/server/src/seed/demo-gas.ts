/**
 * Gas blending for the demo company: the parent gases and recipe of the domain-facts worked
 * example (10 % CO2 in N2) and a trace-level one, so the calculation page has something to open.
 */
import type { DemoLang } from '../config';
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
  },
  en: {
    co2: 'CO2 99.995 %',
    n2: 'N2 99.999 %',
    co: 'CO 99.97 %',
    supplier: 'Demo gas supplier',
    mix: '10 % CO2 in N2',
    trace: '50 µmol/mol CO in N2',
  },
} as const;

export async function seedDemoGas(db: Db, opts: { companyId: number; lang: DemoLang }): Promise<void> {
  const text = TEXT[opts.lang];
  const { companyId, lang } = opts;
  const supplier = text.supplier;
  await savePureGas(db, companyId, lang, {
    name: text.co2,
    main: 'CO2',
    impurities: [{ component: 'N2', umolPerMol: 50 }],
    supplier,
    lot: 'CO2-2611',
    cylinder: 'P-1001',
  });
  await savePureGas(db, companyId, lang, {
    name: text.n2,
    main: 'N2',
    impurities: [{ component: 'O2', umolPerMol: 10 }],
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
  await saveProduct(db, companyId, lang, {
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
}
