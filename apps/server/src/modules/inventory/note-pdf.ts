/**
 * An order printed (A4 portrait): a delivery note for an exit order, a warehouse entry note for
 * an entry order. The company's letterhead, the order's number, state and dates, the customer
 * (exit) or the source of the goods (entry), every line (category, model, serial number,
 * quantity), the totals and the signature lines. Pages break between rows; the table's header
 * repeats on each page.
 */
import { formatInstant, type Lang } from '@platform/domain';
import type { Letterhead } from '../companies/letterhead';
import { drawFooter, drawLetterhead, openPdf, PDF_MARGIN, tableRow } from '../templates/pdf-document';
import type { getOrder } from './service';

type OrderDetail = Awaited<ReturnType<typeof getOrder>>;

const LABELS = {
  zh: {
    entry: '入库单',
    exit: '出库单（送货单）',
    number: '单号',
    state: '状态',
    states: { open: '未确认', confirmed: '已确认', cancelled: '已取消' },
    source: '货品来源',
    sources: { own: '自产产品', sim: '采购 SIM 卡', other: '其他货品' },
    warehouse: '仓库',
    customer: '客户',
    contact: '联系人',
    phone: '电话',
    address: '收货地址',
    created: '制单时间',
    closed: '确认时间',
    notes: '备注',
    index: '序号',
    category: '分类',
    model: '型号',
    sn: '序列号',
    quantity: '数量',
    total: '合计',
    pieces: '件',
    shipper: '发货人签字：',
    receiver: '收货人签字：',
    keeper: '仓管员签字：',
    checker: '验收人签字：',
    footer: '本单一式两份，双方签字后各执一份。',
  },
  en: {
    entry: 'Warehouse entry note',
    exit: 'Delivery note',
    number: 'Number',
    state: 'State',
    states: { open: 'not confirmed', confirmed: 'confirmed', cancelled: 'cancelled' },
    source: 'Goods',
    sources: { own: 'own products', sim: 'purchased SIM cards', other: 'other goods' },
    warehouse: 'Warehouse',
    customer: 'Customer',
    contact: 'Contact',
    phone: 'Phone',
    address: 'Delivery address',
    created: 'Made',
    closed: 'Confirmed',
    notes: 'Notes',
    index: 'No.',
    category: 'Category',
    model: 'Model',
    sn: 'Serial number',
    quantity: 'Quantity',
    total: 'Total',
    pieces: 'pcs',
    shipper: 'Shipped by:',
    receiver: 'Received by:',
    keeper: 'Storekeeper:',
    checker: 'Checked by:',
    footer: 'Two copies: one for each party once signed.',
  },
} as const;

/** A timestamp as the note prints it, in the company's zone. */
const stamp = (iso: string, timeZone: string) =>
  formatInstant(Date.parse(iso), 'yyyy-MM-dd HH:mm:ss', timeZone).slice(0, 16);

export async function orderNotePdf(
  order: OrderDetail,
  company: Letterhead,
  lang: Lang,
  timeZone: string,
): Promise<Buffer> {
  const L = LABELS[lang];
  const margin = PDF_MARGIN;
  const title = order.kind === 'exit' ? L.exit : L.entry;
  const { doc, done } = openPdf(`${title} ${order.number}`, 'smartdata inventory');
  const width = doc.page.width - 2 * margin;
  let y = drawLetterhead(doc, company, `${L.number}: ${order.number}`);
  doc.fontSize(20).fillColor('#1f4e79').text(title, margin, y, { width, align: 'center' });
  y = doc.y + 14;

  // the order, in two columns of label: value
  const half = width / 2;
  const pairs: Array<[string, string]> = [
    [L.number, order.number],
    [L.state, L.states[order.state]],
  ];
  if (order.kind === 'exit')
    pairs.push(
      [L.customer, order.customer],
      [L.warehouse, order.warehouse],
      [L.contact, order.contact],
      [L.phone, order.phone],
    );
  else pairs.push([L.source, order.source ? L.sources[order.source] : ''], [L.warehouse, order.warehouse]);
  pairs.push(
    [L.created, stamp(order.createdAt, timeZone)],
    [L.closed, order.closedAt ? stamp(order.closedAt, timeZone) : ''],
  );
  for (let i = 0; i < pairs.length; i += 2) {
    let bottom = y;
    for (const [j, pair] of pairs.slice(i, i + 2).entries()) {
      const x = margin + j * half;
      doc.fontSize(10).fillColor('#666666').text(`${pair[0]}:`, x, y, { width: 80 });
      doc.fillColor('#000000').text(pair[1] || '—', x + 82, y, { width: half - 90 });
      bottom = Math.max(bottom, doc.y);
    }
    y = bottom + 5;
  }
  const long = (label: string, value: string) => {
    if (!value) return;
    doc.fontSize(10).fillColor('#666666').text(`${label}:`, margin, y, { width: 80 });
    doc.fillColor('#000000').text(value, margin + 82, y, { width: width - 82 });
    y = doc.y + 5;
  };
  if (order.kind === 'exit') long(L.address, order.address);
  long(L.notes, order.notes);
  y += 8;

  // the lines
  const cols = [margin, margin + 40, margin + 170, margin + 270, margin + 430, margin + width];
  const align = ['center', 'left', 'left', 'left', 'right'] as const;
  const headerRow = () => {
    y = tableRow(doc, y, cols, [L.index, L.category, L.model, L.sn, L.quantity], { header: true, align });
  };
  headerRow();
  const bottom = doc.page.height - margin - 40;
  order.lines.forEach((line, i) => {
    if (y + 20 > bottom) {
      doc.addPage();
      y = margin;
      headerRow();
    }
    y = tableRow(
      doc,
      y,
      cols,
      [
        String(i + 1),
        line.categoryName,
        line.model,
        line.sn ?? '—',
        `${line.quantity} ${line.unit || L.pieces}`,
      ],
      { align },
    );
  });
  const total = order.lines.reduce((sum, line) => sum + line.quantity, 0);
  y = tableRow(doc, y, cols, ['', L.total, '', '', String(total)], { header: true, align });

  // signatures
  if (y + 60 > bottom) {
    doc.addPage();
    y = margin;
  }
  y += 36;
  const [left, right] = order.kind === 'exit' ? [L.shipper, L.receiver] : [L.keeper, L.checker];
  doc.fontSize(10).fillColor('#000000');
  doc.text(`${left} ____________________`, margin, y, { width: half });
  doc.text(`${right} ____________________`, margin + half, y, { width: half });
  drawFooter(doc, L.footer);
  doc.end();
  return done;
}
