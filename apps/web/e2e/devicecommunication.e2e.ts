/**
 * Serial packets and parsers as a person uses them, in Chinese and English at 1440 and 390 px:
 * a packet refused by the seed's hex rule (the catalogue's words shown as typed, nothing
 * sent), then saved with its CRC appended (the two CRC bytes shown); a parser defined on it
 * and a pasted answer frame decoded in the live preview, checked against the vectors of
 * domain-facts.md (41 20 00 00 in ABCD and 00 00 41 20 in CDAB are 10.0 as float32), the
 * bytes each value reads marked in the frame; saved, and read back through the API.
 */
import { appendCrc, type Lang as DomainLang, messageFor, parseHex, toHex } from '@platform/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMIN, openBrowser, type RunningServer, shot, startServer } from './harness';
import { pickOption, success, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
let token: string;
const { api, postJson, tokenOf, openAs, go } = supportFor(() => ({ server, browser, token }));

const withCrc = (hex: string) => toHex(appendCrc(parseHex(hex)!));
const ITEM = '电表读数';

interface Packet {
  id: number;
  name: string;
  frame: string;
  crc: string | null;
}

beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
  token = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
  await postJson('/user/acceptTerms', { accepted: true });
  // the IoT data list the values are stored in: 电压 (decimal) and 状态 (integer)
  const node = await postJson<{ refId: number }>('/smartdata/cabin/create', {
    type: 'dataItem',
    name: ITEM,
    kind: 13,
  });
  expect(node.code, node.message).toBe(0);
  const fields = await postJson('/smartdata/item/update', {
    itemId: node.data.refId,
    fields: [
      { name: '电压', type: 1, decimals: 2, unit: 'V' },
      { name: '状态', type: 10 },
    ],
  });
  expect(fields.code, fields.message).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function packetNamed(name: string): Promise<Packet | undefined> {
  const list = await api<{ list: Packet[] }>(
    `/devicecommunication/dataPackage/list?keyword=${encodeURIComponent(name)}`,
  );
  return list.data.list.find((p) => p.name === name);
}

/** Sets a value card's number input. */
async function setNumber(page: Page, testId: string, value: number): Promise<void> {
  const input = page.getByTestId(testId);
  await input.fill(String(value));
  await input.blur();
}

for (const lang of ['zh', 'en'] as const) {
  for (const width of [1440, 390]) {
    describe(`${lang} at ${width} px`, () => {
      let context: BrowserContext;
      let page: Page;
      const name = `${lang === 'zh' ? '电表' : 'meter'} ${width}`;
      const words = (key: Parameters<typeof messageFor>[0], params?: Record<string, string | number>) =>
        messageFor(key, lang as DomainLang, params);

      beforeAll(async () => {
        ({ context, page } = await openAs(lang, width));
      });

      afterAll(async () => {
        await context?.close();
      });

      test('a packet refused by the hex rule as typed, then saved with its CRC', async () => {
        const saves: string[] = [];
        page.on('request', (r) => {
          if (r.url().includes('/dataPackage/add')) saves.push(r.url());
        });
        await go(page, '/devicecommunication/datapackage', 'packets-page');
        if (width === 1440) await shot(page, `dc-packets-list-before-${lang}`);
        await page.getByTestId('packet-add').click();
        await page.getByTestId('packet-form').waitFor();
        await page.getByTestId('packet-name').fill(name);
        await page.getByTestId('packet-frame').fill('01 03 00 00 00 0');
        const refusal = page.locator('.ant-form-item-explain-error', { hasText: words('hexPacketInvalid') });
        await refusal.waitFor();
        await page.getByTestId('packet-frame').fill('01 03 00 00 00 02 ');
        await refusal.waitFor();
        await page.getByTestId('packet-save').click();
        await refusal.waitFor();
        await shot(page, `dc-packet-hex-refused-${lang}-${width}`);
        expect(saves).toEqual([]);

        await page.getByTestId('packet-frame').fill('01 03 00 00 00 02');
        await refusal.waitFor({ state: 'detached' });
        // domain-facts: 01 03 00 00 00 02 is followed by C4 0B
        await expect.poll(() => page.getByTestId('packet-crc').innerText()).toBe('C4 0B');
        expect(await page.getByTestId('packet-sent').innerText()).toBe('01 03 00 00 00 02 C4 0B');
        await page.getByTestId('packet-modbus').waitFor();
        await shot(page, `dc-packet-crc-${lang}-${width}`);
        await page.getByTestId('packet-save').click();
        await success(page, { untilGone: true });
        await page.getByTestId('packets-page').waitFor();
        await expect
          .poll(() => page.getByTestId(`packet-frame-${name}`).innerText())
          .toBe('01 03 00 00 00 02 C4 0B');
        await shot(page, `dc-packets-list-${lang}-${width}`);
        expect(await packetNamed(name)).toMatchObject({ frame: '01 03 00 00 00 02', crc: 'C4 0B' });
      });

      test('a parser defined and a pasted frame decoded in the preview', async () => {
        const packet = await packetNamed(name);
        expect(packet).toBeDefined();
        await go(page, '/devicecommunication/parsing', 'parsing-page');
        await page.getByTestId(`packet-parse-${name}`).click();
        await page.getByTestId('parser-page').waitFor();
        // the preview starts from a well-formed answer to the packet
        expect(await page.getByTestId('preview-frame').inputValue()).toBe(withCrc('01 03 04 00 00 00 00'));

        await page.getByTestId('parser-add').click();
        await page.getByTestId('value-0').waitFor();
        await page.getByTestId('value-0-name').fill('电压');
        await pickOption(page, page.getByTestId('value-0-valueType'), lang === 'zh' ? '小数' : 'Decimal');
        await pickOption(
          page,
          page.getByTestId('value-0-format'),
          lang === 'zh' ? '单精度浮点' : 'Single float',
        );
        await expect.poll(() => page.getByTestId('value-0-length').inputValue()).toBe('4');
        await pickOption(page, page.getByTestId('value-0-item'), ITEM);
        await pickOption(page, page.getByTestId('value-0-field'), '电压');

        // domain-facts: 41 20 00 00 in ABCD is 10.0; the frame of docs/device-protocol.md
        await page.getByTestId('preview-frame').fill('01 03 04 41 20 00 00 EF C5');
        await expect.poll(() => page.getByTestId('preview-value-0').innerText()).toBe('10');
        await page.getByTestId('preview-frame-ok').waitFor();
        // the value's bytes are 3 to 6 of the frame
        for (const i of [3, 4, 5, 6])
          expect(await page.getByTestId(`preview-byte-${i}`).getAttribute('data-values')).toBe('0');
        expect(await page.getByTestId('preview-byte-2').getAttribute('data-values')).toBe('');

        // the same value sent word-swapped: 00 00 41 20 read as CDAB
        await page.getByTestId('preview-frame').fill(withCrc('01 03 04 00 00 41 20'));
        await expect.poll(() => page.getByTestId('preview-value-0').innerText()).not.toBe('10');
        await pickOption(page, page.getByTestId('value-0-order'), 'CDAB');
        await expect.poll(() => page.getByTestId('preview-value-0').innerText()).toBe('10');
        expect(await page.getByTestId('value-0-permutation').innerText()).toContain('C D A B');

        // a second value past the end of the data: its error, named, at once
        await page.getByTestId('parser-add').click();
        await page.getByTestId('value-1-name').fill('状态');
        await setNumber(page, 'value-1-offset', 4);
        const past = words('parserValuePastEnd', { value: '状态', length: 4 });
        await expect.poll(() => page.getByTestId('preview-value-1').innerText()).toBe(past);
        await setNumber(page, 'value-1-offset', 2);
        // bytes 2-3 of the data (41 20 in the frame) as an unsigned 16-bit register
        await expect.poll(() => page.getByTestId('preview-value-1').innerText()).toBe(String(0x4120));
        await pickOption(page, page.getByTestId('value-1-item'), ITEM);
        await pickOption(page, page.getByTestId('value-1-field'), '状态');

        // a bad CRC is named in the preview
        await page.getByTestId('preview-frame').fill('01 03 04 00 00 41 20 00 00');
        await page.getByTestId('preview-frame-error').getByText(words('frameBadCrc')).waitFor();
        await page.getByTestId('preview-fill').click();
        await page.getByTestId('preview-frame-ok').waitFor();
        expect(await page.getByTestId('preview-frame').inputValue()).toBe(withCrc('01 03 04 00 00 41 20'));
        await expect.poll(() => page.getByTestId('preview-value-0').innerText()).toBe('10');

        await page.getByTestId('preview').scrollIntoViewIfNeeded();
        await shot(page, `dc-parser-preview-${lang}-${width}`);
        await page.getByTestId('parser-save').click();
        await success(page, { untilGone: true });
        const saved = await api<{
          values: Array<{ name: string; order: string; format: string; fieldKey: string }>;
        }>(`/devicecommunication/parsing/get?dataPkgId=${packet!.id}`);
        expect(saved.data.values).toMatchObject([
          { name: '电压', order: 'CDAB', format: 'float', fieldKey: 'f1' },
          { name: '状态', format: 'uint', fieldKey: 'f2' },
        ]);
        await page.getByTestId('value-0').scrollIntoViewIfNeeded();
        await shot(page, `dc-parser-values-${lang}-${width}`);
      });
    });
  }
}

describe('deleting a packet', () => {
  test('asks first, then the packet and its parser are gone', async () => {
    const { context, page } = await openAs('zh', 1440);
    const made = await postJson<Packet>('/devicecommunication/dataPackage/add', {
      name: '待删除',
      frame: '02 07',
      appendCrc: true,
      valueType: 'byte',
      encoding: 'HEX',
      samplingId: 4,
    });
    expect(made.code, made.message).toBe(0);
    await go(page, '/devicecommunication/datapackage', 'packets-page');
    await page.getByTestId('packet-delete-待删除').click();
    await page.locator('.ant-popconfirm').waitFor();
    await shot(page, 'dc-packet-delete-confirm-zh');
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await success(page);
    await expect.poll(async () => (await packetNamed('待删除')) === undefined).toBe(true);
    await context.close();
  });
});
