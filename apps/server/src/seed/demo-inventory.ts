/**
 * The demo company's inventory, made through the inventory's own services so every unit moved
 * as the state machine allows and the production log tells it: gateways (the four serial numbers
 * the demo's gateway registry knows were produced, stocked and shipped, so three show as bound
 * by a customer and one as registered), newer gateways stocked, finished and in production, an
 * open delivery order, purchased SIM cards, and a counted cable; the production plans that made
 * the gateways (one finished, one in production, one planned); two sales orders, the paid one
 * with its signed contract from the standard contract template.
 */
import { defaultContractHtml } from '@platform/domain';
import type { DemoLang } from '../config';
import {
  addUnits,
  confirmOrder,
  createOrder,
  saveCategory,
  setQuantities,
} from '../modules/inventory/service';
import { recordUnits, saveSchedule, scheduleAction } from '../modules/production/service';
import { createContract, saveContractTemplate, signContract } from '../modules/sales/contracts';
import { payOrder, submitOrder } from '../modules/sales/service';
import type { Actor } from '../platform/auth';
import type { Db } from '../platform/db';

const TEXT = {
  zh: {
    gateway: '4G 数据网关',
    sim: '物联网卡',
    cable: 'RS485 通信线',
    warehouse: '成品仓',
    parts: '辅料仓',
    customer: '华东水务集团',
    contact: '王工',
    address: '上海市浦东新区张江路 88 号',
    pieces: '台',
    cards: '张',
    metres: '米',
    line1: '一号线',
    line2: '二号线',
    contractTemplate: '标准销售合同',
  },
  en: {
    gateway: '4G data gateway',
    sim: 'IoT SIM card',
    cable: 'RS485 cable',
    warehouse: 'Finished goods',
    parts: 'Parts store',
    customer: 'East Water Group',
    contact: 'Mr Wang',
    address: '88 Zhangjiang Road, Pudong, Shanghai',
    pieces: 'pcs',
    cards: 'pcs',
    metres: 'm',
    line1: 'Line 1',
    line2: 'Line 2',
    contractTemplate: 'Standard sales contract',
  },
} as const;

/** the serial numbers of the demo's gateway registry (demo-gateways.ts) */
const SHIPPED = ['SDG2024000101', 'SDG2024000102', 'SDG4024000103', 'SDG2024000104'];
const STOCKED = ['SDG2024000105', 'SDG2024000106', 'SDG2024000107'];
const FINISHED = ['SDG2024000108', 'SDG2024000109'];
const MAKING = ['SDG2024000110'];
const ICCIDS = ['89860012345678900131', '89860012345678900149', '89860012345678900156'];

export async function seedDemoInventory(
  db: Db,
  opts: { companyId: number; adminId: number; lang: DemoLang },
): Promise<void> {
  const text = TEXT[opts.lang];
  const actor: Actor = { companyId: opts.companyId, userId: opts.adminId, lang: opts.lang };
  const gateway = await saveCategory(db, opts.companyId, {
    name: text.gateway,
    kind: 'own',
    model: 'SDG-4G',
    unit: text.pieces,
  });
  const sim = await saveCategory(db, opts.companyId, { name: text.sim, kind: 'sim', unit: text.cards });
  const cable = await saveCategory(db, opts.companyId, {
    name: text.cable,
    kind: 'other',
    serialized: false,
    model: 'RVSP 2×0.5',
    unit: text.metres,
  });

  const entry = async (source: 'own' | 'sim' | 'other', sns: string[], categoryId?: number) => {
    const order = await createOrder(db, actor, { kind: 'entry', source, warehouse: text.warehouse });
    if (sns.length) await addUnits(db, actor, { id: order.id, sns, ...(categoryId ? { categoryId } : {}) });
    return order;
  };
  const exitTo = (salesOrderId?: number) =>
    createOrder(db, actor, {
      kind: 'exit',
      salesOrderId,
      warehouse: text.warehouse,
      customer: text.customer,
      contact: text.contact,
      phone: '13800000000',
      address: text.address,
    });

  // a finished plan made the gateways shipped and stocked; the current one is half way
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const made = await saveSchedule(db, actor, {
    categoryId: gateway.id,
    quantity: SHIPPED.length + STOCKED.length,
    line: text.line1,
    startOn: day(-10),
    endOn: day(-6),
  });
  await scheduleAction(db, actor, { id: made.id, action: 'start' });
  await recordUnits(db, actor, { id: made.id, sns: [...SHIPPED, ...STOCKED], finished: true });
  await scheduleAction(db, actor, { id: made.id, action: 'finish' });
  const making = await saveSchedule(db, actor, {
    categoryId: gateway.id,
    quantity: 10,
    line: text.line2,
    startOn: day(-1),
    endOn: day(4),
  });
  await scheduleAction(db, actor, { id: making.id, action: 'start' });
  await recordUnits(db, actor, { id: making.id, sns: FINISHED, finished: true });
  await recordUnits(db, actor, { id: making.id, sns: MAKING });
  // the next one, planned
  await saveSchedule(db, actor, {
    categoryId: gateway.id,
    quantity: 20,
    line: text.line1,
    startOn: day(5),
    endOn: day(9),
  });
  await confirmOrder(db, actor, (await entry('own', [...SHIPPED, ...STOCKED])).id);
  // the shipped gateways were sold to the water group (paid) and delivered for that sale
  const sold = await submitOrder(db, actor, {
    customer: text.customer,
    contact: text.contact,
    address: text.address,
    lines: [{ kind: 'product', categoryId: gateway.id, quantity: SHIPPED.length, unitPriceCents: 128_000 }],
  });
  await payOrder(db, actor, { id: sold.id });
  const shipped = await exitTo(sold.id);
  await addUnits(db, actor, { id: shipped.id, sns: SHIPPED });
  await confirmOrder(db, actor, shipped.id);
  // a delivery order being prepared: one gateway chosen into it
  const preparing = await exitTo();
  await addUnits(db, actor, { id: preparing.id, sns: [STOCKED[0]!] });

  await confirmOrder(db, actor, (await entry('sim', ICCIDS, sim.id)).id);

  // sales: the gateways' sale has its signed contract; a year of service for the demo company
  // itself waits for payment (paying it moves the demo's service end, which the top bar shows)
  // its contract, from the company's standard template, signed
  const template = await saveContractTemplate(db, actor, {
    name: text.contractTemplate,
    html: defaultContractHtml(opts.lang),
  });
  const contract = await createContract(db, actor, { orderId: sold.id, templateId: template.id });
  await signContract(db, actor, { id: contract.id });
  await submitOrder(db, actor, {
    customerCompanyId: opts.companyId,
    lines: [{ kind: 'service', plan: 0, months: 12, quantity: 1, unitPriceCents: 980_000 }],
  });

  const cables = await createOrder(db, actor, { kind: 'entry', source: 'other', warehouse: text.parts });
  await setQuantities(db, actor, { id: cables.id, lines: [{ categoryId: cable.id, quantity: 500 }] });
  await confirmOrder(db, actor, cables.id);
}
