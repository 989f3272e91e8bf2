/**
 * The certificate of analysis as a PDF (A4 portrait, pdfkit, the report font so Chinese
 * renders): the company's logo and name, the cylinder, the certified values with their
 * expanded uncertainties (k = 2) stated as packages/domain `statedValue` does, the method,
 * the traceability statement, the dates, pressure, temperature limits and the laboratory.
 */
import { type Lang, statedValue } from '@platform/domain';
import type { Letterhead } from '../companies/letterhead';
import { drawFooter, drawLetterhead, openPdf, PDF_MARGIN, tableRow } from '../templates/pdf-document';
import type { certificateOf } from './cylinders';

type Certified = Awaited<ReturnType<typeof certificateOf>>;

const LABELS = {
  zh: {
    title: '标准气体分析证书',
    number: '证书编号',
    replaces: '本证书替代已撤销的证书',
    serial: '气瓶编号',
    product: '产品',
    balance: '平衡气',
    component: '组分',
    value: '认定值',
    uncertainty: '扩展不确定度 (k = 2)',
    unit: '单位',
    method: '制备与定值方法',
    methodText: '称量法制备（ISO 6142-1 / GB/T 5274.1），按 ISO 6143 分析比对验证。',
    traceability: '计量溯源性',
    traceabilityText: '认定值通过经校准的天平溯源至国际单位制（SI）质量单位，并以下列标准物质分析验证：',
    noReference: '（未列出标准物质）',
    certifiedOn: '定值日期',
    expiresOn: '有效期至',
    pressure: '定值时气瓶压力',
    temperature: '使用及贮存温度',
    laboratory: '定值实验室',
    verification: '质量控制',
    passed: '分析结果与称量值在合成扩展不确定度内一致，验证通过。',
    signature: '批准人：',
    footer: '本证书仅对上述气瓶内的气体有效。',
  },
  en: {
    title: 'Certificate of Analysis',
    number: 'Certificate No.',
    replaces: 'Replaces the revoked certificate',
    serial: 'Cylinder No.',
    product: 'Product',
    balance: 'Balance gas',
    component: 'Component',
    value: 'Certified value',
    uncertainty: 'Expanded uncertainty (k = 2)',
    unit: 'Unit',
    method: 'Preparation and certification',
    methodText: 'Gravimetric preparation (ISO 6142-1), verified by analysis per ISO 6143.',
    traceability: 'Metrological traceability',
    traceabilityText:
      'The certified values are traceable to the SI unit of mass through calibrated balances and were verified against these reference materials:',
    noReference: '(no reference material listed)',
    certifiedOn: 'Certification date',
    expiresOn: 'Valid until',
    pressure: 'Cylinder pressure at certification',
    temperature: 'Use and storage temperature',
    laboratory: 'Certifying laboratory',
    verification: 'Quality control',
    passed:
      'The analysis results agree with the gravimetric values within their combined expanded uncertainties.',
    signature: 'Approved by:',
    footer: 'This certificate applies only to the gas in the cylinder named above.',
  },
} as const satisfies Record<Lang, Record<string, string>>;

export async function certificatePdf(data: Certified, company: Letterhead, lang: Lang): Promise<Buffer> {
  const L = LABELS[lang];
  const { cylinder, certificate, references } = data;
  const margin = PDF_MARGIN;
  const { doc, done } = openPdf(`${L.title} ${certificate.number}`, 'smartdata gas blending');
  const width = doc.page.width - 2 * margin;
  let y = drawLetterhead(doc, company, `${L.number}: ${certificate.number}`);
  doc.fontSize(20).fillColor('#1f4e79').text(L.title, margin, y, { width, align: 'center' });
  y = doc.y + 16;

  // the cylinder
  const field = (label: string, value: string) => {
    doc.fontSize(10).fillColor('#666666').text(`${label}:`, margin, y, { width: 170 });
    doc.fillColor('#000000').text(value, margin + 175, y, { width: width - 175 });
    y = doc.y + 5;
  };
  field(L.serial, cylinder.serialNumber);
  if (cylinder.productName) field(L.product, cylinder.productName);
  field(L.balance, cylinder.balance);
  if (certificate.replaces) field(L.replaces, certificate.replaces);
  y += 8;

  // the certified values
  const cols = [margin, margin + 130, margin + 260, margin + 420, margin + width];
  const row = (cells: string[], header = false) => {
    y = tableRow(doc, y, cols, cells, { header });
  };
  row([L.component, L.value, L.uncertainty, L.unit], true);
  for (const value of cylinder.values) {
    const stated = statedValue(value.fraction, value.expanded);
    row([
      value.component === cylinder.balance ? `${value.component} (${L.balance})` : value.component,
      stated.value,
      stated.uncertainty ? `± ${stated.uncertainty}` : '—',
      stated.unit === '%' ? '% mol/mol' : 'µmol/mol',
    ]);
  }
  y += 14;

  const section = (title: string, body: string) => {
    doc.fontSize(11).fillColor('#1f4e79').text(title, margin, y, { width });
    doc
      .fontSize(10)
      .fillColor('#000000')
      .text(body, margin, doc.y + 3, { width });
    y = doc.y + 10;
  };
  section(L.method, L.methodText);
  const referenceLines = references.length
    ? references.map((r) => `• ${r.name} — ${r.certificateNo}${r.issuer ? ` (${r.issuer})` : ''}`).join('\n')
    : L.noReference;
  section(L.traceability, `${L.traceabilityText}\n${referenceLines}`);
  section(L.verification, L.passed);
  field(L.certifiedOn, certificate.certifiedOn);
  field(L.expiresOn, certificate.expiresOn);
  field(L.pressure, `${certificate.pressureMPa} MPa`);
  field(L.temperature, `${certificate.tempMinC} °C … ${certificate.tempMaxC} °C`);
  field(L.laboratory, certificate.laboratory);
  y += 30;
  doc
    .fontSize(10)
    .fillColor('#000000')
    .text(`${L.signature} ____________________`, margin + width / 2, y, {
      width: width / 2,
    });
  drawFooter(doc, L.footer);
  doc.end();
  return done;
}
