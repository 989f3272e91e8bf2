import { describe, expect, test } from 'vitest';
import { placeholderKeys } from '../templates/doc';
import {
  CONTRACT_FIELDS,
  CONTRACT_STATUSES,
  type ContractOrder,
  contractTransition,
  defaultContractHtml,
  fillContract,
  formatCents,
  rmbUppercase,
  unknownContractField,
} from './contracts';

const order: ContractOrder = {
  number: 'SO-20261129-00007',
  orderDate: '2026-11-29',
  status: 'submitted',
  customer: 'Acme <b>Co</b>',
  contact: '张三',
  phone: '13800000000',
  address: '上海市\n浦东新区',
  notes: '',
  totalCents: 1_334_000,
  lines: [
    {
      kind: 'product',
      name: 'SDG-100 网关',
      quantity: 3,
      months: null,
      unitPriceCents: 128_000,
      amountCents: 384_000,
    },
    {
      kind: 'service',
      name: '智慧数据平台 标准版',
      quantity: 2,
      months: 12,
      unitPriceCents: 475_000,
      amountCents: 950_000,
    },
  ],
};
const ctx = {
  contractNo: 'HT-20261129-00001',
  signDate: '2026-11-30',
  seller: '示例科技',
  lang: 'zh' as const,
};

describe('amounts in contracts', () => {
  test.each([
    [133_292_000, '1,332,920.00'],
    [1050, '10.50'],
    [5, '0.05'],
    [0, '0.00'],
    [-123_456, '-1,234.56'],
  ])('%i cents read %s', (cents, text) => expect(formatCents(cents)).toBe(text));

  test.each([
    [133_292_000, '壹佰叁拾叁万贰仟玖佰贰拾元整'],
    [1050, '壹拾元伍角'],
    [10_007, '壹佰元零柒分'],
    [100_500, '壹仟零伍元整'],
    [1_234_567, '壹万贰仟叁佰肆拾伍元陆角柒分'],
    [5, '伍分'],
    [0, '零元整'],
  ])('%i cents in capitals are %s', (cents, words) => expect(rmbUppercase(cents)).toBe(words));
});

describe('contract states', () => {
  test('a draft is signed or deleted; a signed contract refuses both', () => {
    expect(contractTransition('draft', 'sign')).toBe('signed');
    expect(contractTransition('draft', 'delete')).toBe('deleted');
    expect(contractTransition('signed', 'sign')).toBeNull();
    expect(contractTransition('signed', 'delete')).toBeNull();
    expect(CONTRACT_STATUSES).toEqual(['draft', 'signed']);
  });
});

describe('filling a contract', () => {
  test('the standard templates name every contract field and no other', () => {
    for (const lang of ['zh', 'en'] as const) {
      const html = defaultContractHtml(lang);
      expect(unknownContractField(html)).toBeNull();
      expect([...placeholderKeys(html)].sort()).toEqual([...CONTRACT_FIELDS].sort());
    }
  });

  test('an unknown placeholder is named', () => {
    expect(
      unknownContractField('<p><span data-field="orderNo">x</span><span data-field="f1">y</span></p>'),
    ).toBe('f1');
  });

  test('every placeholder is filled from the order, texts escaped, lines as a table with the total', () => {
    const html = fillContract(defaultContractHtml('zh'), order, ctx);
    expect(html).toContain('<span class="tpl-value" data-field="contractNo">HT-20261129-00001</span>');
    expect(html).toContain('<span class="tpl-value" data-field="customer">Acme &lt;b&gt;Co&lt;/b&gt;</span>');
    expect(html).toContain('<span class="tpl-value" data-field="address">上海市<br>浦东新区</span>');
    expect(html).toContain('<span class="tpl-value" data-field="total">¥13,340.00</span>');
    expect(html).toContain('<span class="tpl-value" data-field="totalUpper">壹万叁仟叁佰肆拾元整</span>');
    expect(html).toContain('<td>SDG-100 网关</td><td>3</td><td>1,280.00</td><td>3,840.00</td>');
    expect(html).toContain(
      '<td>智慧数据平台 标准版</td><td>2 × 12 个月</td><td>4,750.00</td><td>9,500.00</td>',
    );
    expect(html).not.toContain('<b>Co');
    expect(html).toContain('<div class="tpl-block"><span class="tpl-value" data-field="lines"><table>');
    expect(html).not.toContain('<p><span class="tpl-value" data-field="lines">');
    expect(html.match(/class="tpl-value"/g)?.length).toBe(CONTRACT_FIELDS.length);
  });

  test('in English the lines read in English', () => {
    const html = fillContract(
      defaultContractHtml('en'),
      { ...order, lines: [{ ...order.lines[1]!, quantity: 1 }] },
      { ...ctx, lang: 'en' },
    );
    expect(html).toContain('<th>Unit price (CNY)</th>');
    expect(html).toContain('<td>12 months</td>');
  });
});
