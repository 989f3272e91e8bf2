import { formatInstant, rmbUppercase } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  bearer,
  buildTestApp,
  makeCompany,
  ok,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { salesContracts } from './tables';

let t: TestApp;
let seller: TestCompany;
let gateway: number;

const call = apiCaller(
  () => t,
  '',
  () => seller.admin.token,
);

async function submitOrder(customer = 'Harbour Water Works') {
  return ok(
    await call('POST', '/sales/order/submit', {
      customer,
      contact: 'Ms Li',
      phone: '13800000001',
      address: 'No. 1 Harbour Road',
      lines: [{ kind: 'product', categoryId: gateway, quantity: 3, unitPriceCents: 128_050 }],
    }),
  ) as { id: number; number: string };
}

beforeAll(async () => {
  t = await buildTestApp();
  seller = await makeCompany(t, 'Contract Seller');
  gateway = ok(
    await call('POST', '/inventory/category/save', { name: 'DTU gateway', kind: 'own', model: 'GW-4G' }),
  ).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('contract templates', () => {
  it('start from the plain contract, are cleaned on save, and name only order fields', async () => {
    const starter = ok(
      await call('GET', '/sales/contract/template/starter', undefined, seller.admin.token, 'zh'),
    );
    expect(starter.html).toContain('<h1>销售合同</h1>');
    expect(starter.fields.map((f: { key: string }) => f.key)).toContain('totalUpper');

    const saved = ok(
      await call('POST', '/sales/contract/template/save', {
        name: 'Standard',
        html: `${starter.html}<script>alert(1)</script><p onclick="x()">signed in duplicate</p>`,
      }),
    );
    expect(saved.html).not.toContain('<script');
    expect(saved.html).not.toContain('onclick');
    expect(saved.html).toContain('signed in duplicate');

    const unknown = await call('POST', '/sales/contract/template/save', {
      name: 'Broken',
      html: '<p><span data-field="f1">a field of a data item</span></p>',
    });
    expect(unknown).toMatchObject({ code: 40000, message: 'Unknown field: f1', data: { field: 'html' } });

    const taken = await call('POST', '/sales/contract/template/save', {
      name: ' Standard ',
      html: '<p>x</p>',
    });
    expect(taken).toMatchObject({
      message: 'A contract template named Standard already exists',
      data: { field: 'name' },
    });

    const blank = await call('POST', '/sales/contract/template/save', { name: '  ', html: '<p>x</p>' });
    expect(blank.data).toMatchObject({ field: 'name' });

    const list = ok(await call('GET', '/sales/contract/template/list'));
    expect(list.map((row: { name: string }) => row.name)).toEqual(['Standard']);

    const renamed = ok(
      await call('POST', '/sales/contract/template/save', {
        id: saved.id,
        name: 'Standard 2026',
        html: saved.html,
      }),
    );
    expect(renamed).toMatchObject({ id: saved.id, name: 'Standard 2026' });
  });
});

describe('contracts', () => {
  it('are an order filled into a template, kept as filled, once per order; signed ones are kept', async () => {
    const starter = ok(
      await call('GET', '/sales/contract/template/starter', undefined, seller.admin.token, 'zh'),
    );
    const template = ok(
      await call('POST', '/sales/contract/template/save', { name: '中文合同', html: starter.html }),
    );
    const order = await submitOrder();

    const contract = ok(
      await call('POST', '/sales/contract/create', { orderId: order.id, templateId: template.id }),
    );
    const today = formatInstant(Date.now(), 'yyyy-MM-dd', 'Asia/Shanghai');
    expect(contract.number).toBe(`HT-${today.replaceAll('-', '')}-${String(contract.id).padStart(5, '0')}`);
    expect(contract).toMatchObject({
      orderId: order.id,
      orderNumber: order.number,
      customer: 'Harbour Water Works',
      totalCents: 384_150,
      templateName: '中文合同',
      status: 'draft',
      signedOn: null,
    });
    expect(contract.html).toContain(`data-field="contractNo">${contract.number}</span>`);
    expect(contract.html).toContain(`data-field="orderNo">${order.number}</span>`);
    expect(contract.html).toContain('data-field="seller">Contract Seller</span>');
    expect(contract.html).toContain('<td>DTU gateway GW-4G</td><td>3</td><td>1,280.50</td><td>3,841.50</td>');
    expect(contract.html).toContain(`data-field="totalUpper">${rmbUppercase(384_150)}</span>`);
    expect(rmbUppercase(384_150)).toBe('叁仟捌佰肆拾壹元伍角');

    // once per order, named
    const again = await call('POST', '/sales/contract/create', {
      orderId: order.id,
      templateId: template.id,
    });
    expect(again).toMatchObject({
      message: `Order ${order.number} already has contract ${contract.number}`,
      data: { field: 'orderId' },
    });

    // the template changes and goes: the contract keeps its words
    await call('POST', '/sales/contract/template/save', {
      id: template.id,
      name: '中文合同',
      html: '<p>new words</p>',
    });
    ok(await call('POST', '/sales/contract/template/delete', { id: template.id }));
    const kept = ok(await call('GET', `/sales/contract/get?id=${contract.id}`));
    expect(kept.html).toBe(contract.html);
    expect(kept).toMatchObject({ templateId: null, templateName: '中文合同' });

    // the Word-readable document
    const doc = await t.app.inject({
      method: 'GET',
      url: `/general/sales/contract/document?id=${contract.id}`,
      headers: bearer(seller.admin.token),
    });
    expect(doc.headers['content-type']).toBe('application/msword; charset=utf-8');
    expect(doc.headers['content-disposition']).toContain(`filename="${contract.number}.doc"`);
    expect(doc.body).toContain('urn:schemas-microsoft-com:office:word');
    expect(doc.body).toContain(contract.html);

    // listed, found by the order's number and by the customer
    for (const keyword of [order.number, 'harbour', contract.number]) {
      const page = ok(await call('GET', `/sales/contract/list?keyword=${encodeURIComponent(keyword)}`));
      expect(page.list.map((row: { id: number }) => row.id)).toContain(contract.id);
    }

    // signed on a day; then neither signed again nor deleted
    const badDay = await call('POST', '/sales/contract/sign', { id: contract.id, signedOn: '2026-02-30' });
    expect(badDay.data).toMatchObject({ field: 'signedOn' });
    const signed = ok(
      await call('POST', '/sales/contract/sign', { id: contract.id, signedOn: '2026-11-30' }),
    );
    expect(signed).toMatchObject({ status: 'signed', signedOn: '2026-11-30' });
    const deleting = await call('POST', '/sales/contract/delete', { id: contract.id });
    expect(deleting).toMatchObject({
      message: 'This contract is signed: it cannot be deleted',
      data: { field: 'id' },
    });
    const resign = await call('POST', '/sales/contract/sign', { id: contract.id });
    expect(resign.data).toMatchObject({ field: 'id' });
    expect(ok(await call('GET', '/sales/contract/list?status=signed')).list).toHaveLength(1);
  });

  it('are refused for a cancelled order and a template of nobody, and a draft may be deleted', async () => {
    const template = ok(
      await call('POST', '/sales/contract/template/save', { name: 'Short', html: '<p>x</p>' }),
    );
    const cancelled = await submitOrder('Cancelled Buyer');
    ok(await call('POST', '/sales/order/cancel', { id: cancelled.id }));
    const refused = await call('POST', '/sales/contract/create', {
      orderId: cancelled.id,
      templateId: template.id,
    });
    expect(refused).toMatchObject({
      message: `Order ${cancelled.number} is cancelled: it cannot be put in a contract`,
      data: { field: 'orderId' },
    });

    const order = await submitOrder('Draft Buyer');
    const noTemplate = await call('POST', '/sales/contract/create', {
      orderId: order.id,
      templateId: 999_999,
    });
    expect(noTemplate).toMatchObject({ code: 40400, data: { field: 'templateId' } });
    expect(await t.db.select().from(salesContracts).where(eq(salesContracts.orderId, order.id))).toEqual([]);

    const draft = ok(
      await call('POST', '/sales/contract/create', { orderId: order.id, templateId: template.id }),
    );
    ok(await call('POST', '/sales/contract/delete', { id: draft.id }));
    expect(await t.db.select().from(salesContracts).where(eq(salesContracts.id, draft.id))).toEqual([]);
  });

  it('two contracts made for one order at once: one is made, the other named', async () => {
    const template = ok(
      await call('POST', '/sales/contract/template/save', { name: 'Race', html: '<p>x</p>' }),
    );
    const order = await submitOrder('Race Buyer');
    const answers = await Promise.all(
      [0, 1].map(() =>
        call('POST', '/sales/contract/create', { orderId: order.id, templateId: template.id }),
      ),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([0, 40900]);
    expect(await t.db.select().from(salesContracts).where(eq(salesContracts.orderId, order.id))).toHaveLength(
      1,
    );
  });

  it('need the contract code', async () => {
    const answer = await call('GET', '/sales/contract/list', undefined, seller.limited.token);
    expect(answer.code).toBe(40300);
  });
});
