import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, type FieldDef, IMAGE_MAX_BYTES, placeholderHtml } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { makePng, multipartFile } from '../users/test-support';
import { makeDocTemplate, templateRow } from './doc-test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Docs A');
  b = await makeCompany(t, 'Docs B');
});

afterAll(async () => {
  await t.close();
});

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', type: 1, decimals: 2 },
  { key: 'f2', name: 'when', type: 4, dateFormat: 'yyyy-MM-dd' },
  { key: 'f3', name: 'note', type: 5 },
];

const BODY = `<h2>Inspection</h2><p>T: ${placeholderHtml('f1', '温度')}, on ${placeholderHtml('f2', 'when')}, note ${placeholderHtml('f3', 'note')}</p>`;

function get(token: string, path: string, query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return t.app.inject({
    method: 'GET',
    url: `/general/smartdata/template/${path}?${qs}`,
    headers: bearer(token),
  });
}

function save(token: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: '/general/smartdata/template/save',
    payload,
    headers: bearer(token),
  });
}

const limitedOn = (nodeId: number, level: 0 | 1 | 2 | 3) =>
  setPermissions(t, nodeId, [{ scope: 'user', subjectId: a.limited.id, level }]);

describe('template list and get', () => {
  it('lists readable doc and rich templates with the bound item, filtered by item', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS, name: 'boiler' });
    const doc = await makeDocTemplate(t, a.id, { html: BODY, itemId: item.itemId, name: 'inspection' });
    const rich = await makeDocTemplate(t, a.id, { type: 'richTemplate', name: 'free text' });
    const hidden = await makeDocTemplate(t, a.id, { name: 'hidden' });
    await limitedOn(hidden.nodeId, 0);

    const res = await get(a.limited.token, 'list', {});
    expect(res.json().code).toBe(0);
    const rows = res.json().data as Array<{
      id: number;
      itemName: string | null;
      type: string;
      level: number;
    }>;
    const ids = rows.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([doc.nodeId, rich.nodeId]));
    expect(ids).not.toContain(hidden.nodeId);
    expect(rows.find((r) => r.id === doc.nodeId)).toMatchObject({
      type: 'docTemplate',
      name: 'inspection',
      itemId: item.itemId,
      itemName: 'boiler',
      level: 2,
    });
    expect(rows.find((r) => r.id === rich.nodeId)).toMatchObject({ type: 'richTemplate', itemId: null });

    const bound = await get(a.limited.token, 'list', { itemId: item.itemId });
    expect(bound.json().data.map((r: { id: number }) => r.id)).toEqual([doc.nodeId]);
  });

  it('hides the name of a bound item the caller cannot read', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS, name: 'private item' });
    await limitedOn(item.nodeId, 0);
    const doc = await makeDocTemplate(t, a.id, { html: BODY, itemId: item.itemId });
    const res = await get(a.limited.token, 'get', { id: doc.nodeId });
    expect(res.json().data).toMatchObject({ itemId: item.itemId, itemName: null, html: BODY });
    expect(res.body).not.toContain('private item');
  });

  it('gets a template made through the cabin with an empty body', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/cabin/create',
      payload: { type: 'richTemplate', name: 'from cabin' },
      headers: bearer(a.admin.token),
    });
    expect(created.json().code).toBe(0);
    const res = await get(a.admin.token, 'get', { id: created.json().data.id });
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        id: created.json().data.id,
        name: 'from cabin',
        type: 'richTemplate',
        html: '',
        itemId: null,
        level: 3,
      },
    });
  });

  it('answers 40400 for an unreadable template, a node of another type and another company', async () => {
    const doc = await makeDocTemplate(t, a.id);
    await limitedOn(doc.nodeId, 0);
    expect((await get(a.limited.token, 'get', { id: doc.nodeId })).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    const item = await makeItem(t, a.id);
    expect((await get(a.admin.token, 'get', { id: item.nodeId })).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await get(b.admin.token, 'get', { id: doc.nodeId })).json().code).toBe(ERROR_CODES.NOT_FOUND);
  });
});

describe('template save', () => {
  it('saves the body and the bound item, and get returns them', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS, name: 'pump' });
    const doc = await makeDocTemplate(t, a.id);
    const res = await save(a.limited.token, { id: doc.nodeId, html: BODY, itemId: item.itemId });
    expect(res.json()).toMatchObject({
      code: 0,
      data: { itemId: item.itemId, itemName: 'pump', html: BODY },
    });
    const row = await templateRow(t, doc.nodeId);
    expect(row.content).toEqual({ html: BODY, itemId: item.itemId });
    expect(row.updatedBy).toBe(a.limited.id);
    expect((await get(a.limited.token, 'get', { id: doc.nodeId })).json().data.html).toBe(BODY);
  });

  it('removes script, style, event handlers and javascript: URLs before storing', async () => {
    const doc = await makeDocTemplate(t, a.id);
    const dirty =
      '<p onclick="steal()">Hello<script>alert(1)</script><img src="x" onerror="alert(2)"></p>' +
      '<style>p{color:red}</style><iframe src="https://evil.example"></iframe>' +
      '<a href="javascript:alert(3)">link</a><a href="https://ok.example/a">ok</a>' +
      '<span data-field="f1" onmouseover="x()">T</span><span data-field="x&quot; onload=&quot;y">bad key</span>';
    const res = await save(a.admin.token, { id: doc.nodeId, html: dirty.replace('data-field="f1" ', '') });
    expect(res.json().code).toBe(0);
    const stored = (await templateRow(t, doc.nodeId)).content.html as string;
    for (const gone of [
      '<script',
      'alert(1)',
      'onerror',
      'onclick',
      '<style',
      'color:red',
      '<iframe',
      'javascript:',
      'onmouseover',
      'onload',
    ]) {
      expect(stored).not.toContain(gone);
    }
    expect(stored).toContain('<a href="https://ok.example/a">ok</a>');
    expect(stored).toContain('<p>Hello<img src="x" /></p>');
    expect(stored).toContain('<span>bad key</span>');
    expect(res.json().data.html).toBe(stored);
  });

  it('keeps a placeholder with a field key and drops an event handler on it', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS });
    const doc = await makeDocTemplate(t, a.id);
    const res = await save(a.admin.token, {
      id: doc.nodeId,
      html: '<p><span data-field="f3" onclick="x()" class="chip">note</span></p>',
      itemId: item.itemId,
    });
    expect(res.json().code).toBe(0);
    expect((await templateRow(t, doc.nodeId)).content.html).toBe('<p><span data-field="f3">note</span></p>');
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS });
    const doc = await makeDocTemplate(t, a.id, { html: '<p>kept</p>' });
    const kept = { html: '<p>kept</p>', itemId: null };
    const cases: Array<[object, string, number]> = [
      [{ id: doc.nodeId }, 'html', ERROR_CODES.VALIDATION],
      [{ id: doc.nodeId, html: { a: 1 } }, 'html', ERROR_CODES.VALIDATION],
      [{ id: doc.nodeId, html: 'x'.repeat(200_001) }, 'html', ERROR_CODES.VALIDATION],
      [
        { id: doc.nodeId, html: `<p>${placeholderHtml('f9', 'gone')}</p>`, itemId: item.itemId },
        'html',
        ERROR_CODES.VALIDATION,
      ],
      [{ id: doc.nodeId, html: `<p>${placeholderHtml('f1', 'T')}</p>` }, 'itemId', ERROR_CODES.VALIDATION],
      [{ id: doc.nodeId, html: '<p>x</p>', itemId: 'abc' }, 'itemId', ERROR_CODES.VALIDATION],
      [{ id: doc.nodeId, html: '<p>x</p>', itemId: 999_999 }, 'itemId', ERROR_CODES.NOT_FOUND],
    ];
    for (const [payload, field, code] of cases) {
      const res = await save(a.admin.token, payload);
      expect(res.json(), JSON.stringify(payload).slice(0, 80)).toMatchObject({ code, data: { field } });
    }
    const unknown = await save(a.admin.token, cases[3]![0]);
    expect(unknown.json().message).toContain('f9');
    expect((await templateRow(t, doc.nodeId)).content).toEqual(kept);
  });

  it('needs write on the template and read on the bound item', async () => {
    const item = await makeItem(t, a.id, { fields: FIELDS });
    const doc = await makeDocTemplate(t, a.id, { html: '<p>kept</p>' });
    await limitedOn(doc.nodeId, 1);
    expect((await save(a.limited.token, { id: doc.nodeId, html: '<p>new</p>' })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    await limitedOn(doc.nodeId, 0);
    expect((await save(a.limited.token, { id: doc.nodeId, html: '<p>new</p>' })).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    await limitedOn(doc.nodeId, 2);
    await limitedOn(item.nodeId, 0);
    expect(
      (await save(a.limited.token, { id: doc.nodeId, html: '<p>new</p>', itemId: item.itemId })).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect((await templateRow(t, doc.nodeId)).content).toEqual({ html: '<p>kept</p>', itemId: null });
    await limitedOn(item.nodeId, 1);
    expect(
      (await save(a.limited.token, { id: doc.nodeId, html: '<p>new</p>', itemId: item.itemId })).json().code,
    ).toBe(0);
    expect((await templateRow(t, doc.nodeId)).content).toEqual({ html: '<p>new</p>', itemId: item.itemId });
  });

  it("refuses another company's item as the binding", async () => {
    const foreign = await makeItem(t, b.id, { fields: FIELDS });
    const doc = await makeDocTemplate(t, a.id);
    expect(
      (await save(a.admin.token, { id: doc.nodeId, html: '<p>x</p>', itemId: foreign.itemId })).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect((await templateRow(t, doc.nodeId)).content).toEqual({ html: '', itemId: null });
  });
});

describe('template render', () => {
  async function bound() {
    const item = await makeItem(t, a.id, { fields: FIELDS, name: 'reactor' });
    const doc = await makeDocTemplate(t, a.id, { html: BODY, itemId: item.itemId, name: 'sheet' });
    const [recordId] = await makeRecords(t, a.id, item.itemId, [
      {
        ts: '2026-02-01T00:00:00Z',
        values: { f1: 21.5, f2: '2026-03-01T02:00:00.000Z', f3: '<img src=x onerror="alert(1)">' },
      },
    ]);
    return { item, doc, recordId: recordId! };
  }

  it("fills the template with the record's formatted, escaped values", async () => {
    const { item, doc, recordId } = await bound();
    const res = await get(a.limited.token, 'render', { id: doc.nodeId, itemId: item.itemId, recordId });
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        id: doc.nodeId,
        name: 'sheet',
        itemName: 'reactor',
        recordId,
        ts: '2026-02-01T00:00:00.000Z',
        tsText: '2026-02-01 08:00:00',
        timeZone: 'Asia/Shanghai',
      },
    });
    const html = res.json().data.html as string;
    expect(html).toContain('<span class="tpl-value" data-field="f1">21.50</span>');
    expect(html).toContain('<span class="tpl-value" data-field="f2">2026-03-01</span>');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).not.toContain('<img');
    expect(html.startsWith('<h2>Inspection</h2>')).toBe(true);
  });

  it("reads every time in the company's time zone", async () => {
    const c = await makeCompany(t, 'Docs Berlin');
    const zoned = await t.app.inject({
      method: 'POST',
      url: '/general/company/updateCompany',
      payload: { timeZone: 'Europe/Berlin' },
      headers: bearer(c.admin.token),
    });
    expect(zoned.json().code).toBe(0);
    const fields: FieldDef[] = [{ key: 'f2', name: 'when', type: 4 }];
    const item = await makeItem(t, c.id, { fields, name: 'press' });
    const body = `<p>${placeholderHtml('ts', 'time')} / ${placeholderHtml('f2', 'when')}</p>`;
    const doc = await makeDocTemplate(t, c.id, { html: body, itemId: item.itemId, name: 'zoned' });
    const [recordId] = await makeRecords(t, c.id, item.itemId, [
      { ts: '2026-11-24T18:50:46Z', values: { f2: '2026-11-24T23:30:00.000Z' } },
    ]);
    const res = await get(c.admin.token, 'render', {
      id: doc.nodeId,
      itemId: item.itemId,
      recordId: recordId!,
    });
    expect(res.json().data).toMatchObject({ tsText: '2026-11-24 19:50:46', timeZone: 'Europe/Berlin' });
    const html = res.json().data.html as string;
    expect(html).toContain('<span class="tpl-value" data-field="ts">2026-11-24 19:50:46</span>');
    expect(html).toContain('<span class="tpl-value" data-field="f2">2026-11-25 00:30:00</span>');
  });

  it('works with read level on both and refuses what the caller cannot read', async () => {
    const { item, doc, recordId } = await bound();
    await limitedOn(doc.nodeId, 1);
    await limitedOn(item.nodeId, 1);
    const q = { id: doc.nodeId, itemId: item.itemId, recordId };
    expect((await get(a.limited.token, 'render', q)).json().code).toBe(0);
    await limitedOn(item.nodeId, 0);
    expect((await get(a.limited.token, 'render', q)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'itemId' },
    });
    await limitedOn(item.nodeId, 1);
    await limitedOn(doc.nodeId, 0);
    expect((await get(a.limited.token, 'render', q)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
  });

  it('refuses a record of another item and an item the template is not bound to', async () => {
    const { item, doc } = await bound();
    const other = await makeItem(t, a.id, { fields: FIELDS });
    const [otherRecord] = await makeRecords(t, a.id, other.itemId, [{ values: { f3: 'other' } }]);
    expect(
      (
        await get(a.admin.token, 'render', { id: doc.nodeId, itemId: item.itemId, recordId: otherRecord! })
      ).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'recordId' } });
    const mismatch = await get(a.admin.token, 'render', {
      id: doc.nodeId,
      itemId: other.itemId,
      recordId: otherRecord!,
    });
    expect(mismatch.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'itemId' } });
    expect(mismatch.body).not.toContain('other');
  });

  it("answers 40400 for another company's template, item or record", async () => {
    const { item, doc, recordId } = await bound();
    const own = await makeDocTemplate(t, b.id, { html: '<p>plain</p>' });
    expect(
      (await get(b.admin.token, 'render', { id: doc.nodeId, itemId: item.itemId, recordId })).json().code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect(
      (await get(b.admin.token, 'render', { id: own.nodeId, itemId: item.itemId, recordId })).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    const bItem = await makeItem(t, b.id, { fields: FIELDS });
    expect(
      (await get(b.admin.token, 'render', { id: own.nodeId, itemId: bItem.itemId, recordId })).json(),
    ).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'recordId' } });
  });
});

describe('template images', () => {
  function uploadImage(
    token: string,
    id: number,
    bytes: Buffer,
    opts: Parameters<typeof multipartFile>[1] = {},
  ) {
    const { payload, headers } = multipartFile(bytes, opts);
    return t.app.inject({
      method: 'POST',
      url: `/general/smartdata/template/image?id=${id}`,
      payload,
      headers: { ...headers, ...bearer(token), 'accept-language': 'en' },
    });
  }

  /** image files stored for a template (public bucket, templates/<company>/<node>/) */
  async function imageFiles(companyId: number, nodeId: number): Promise<string[]> {
    const dir = path.join(t.dataDir, 'files', 'public', 'templates', String(companyId), String(nodeId));
    return (await readdir(dir).catch(() => [] as string[])).sort();
  }

  it('stores a PNG for a writer; the body may use its URL, served by its bytes without a token', async () => {
    const doc = await makeDocTemplate(t, a.id);
    await limitedOn(doc.nodeId, 2);
    const png = await makePng(320, 200);
    const res = await uploadImage(a.limited.token, doc.nodeId, png);
    expect(res.json().code).toBe(0);
    const url = res.json().data.url as string;
    expect(url).toMatch(
      new RegExp(`^/general/files/public/templates/${a.id}/${doc.nodeId}/[0-9a-f]{32}\\.png$`),
    );
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    // the sanitiser keeps the image in the body
    const html = `<p>logo</p><img src="${url}" alt="logo">`;
    expect((await save(a.limited.token, { id: doc.nodeId, html })).json().code).toBe(0);
    expect((await templateRow(t, doc.nodeId)).content).toEqual({
      html: `<p>logo</p><img src="${url}" alt="logo" />`,
      itemId: null,
    });
  });

  it('judges by bytes and size with the spec messages, storing nothing', async () => {
    const doc = await makeDocTemplate(t, a.id);
    const text = await uploadImage(a.admin.token, doc.nodeId, Buffer.from('not a picture'), {
      filename: 'x.png',
    });
    expect(text.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message:
        'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.',
      data: { field: 'file' },
    });
    const big = Buffer.alloc(IMAGE_MAX_BYTES + 1, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const large = await uploadImage(a.admin.token, doc.nodeId, big, {
      filename: 'big.jpg',
      contentType: 'image/jpeg',
    });
    expect(large.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'The image size exceeds 3M',
      data: { field: 'file' },
    });
    expect(await imageFiles(a.id, doc.nodeId)).toEqual([]);
  });

  it('needs write on the template: read only is 40300, none and another company 40400', async () => {
    const doc = await makeDocTemplate(t, a.id);
    const png = await makePng(10, 10);
    await limitedOn(doc.nodeId, 1);
    expect((await uploadImage(a.limited.token, doc.nodeId, png)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    await limitedOn(doc.nodeId, 0);
    expect((await uploadImage(a.limited.token, doc.nodeId, png)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    expect((await uploadImage(b.admin.token, doc.nodeId, png)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    expect(await imageFiles(a.id, doc.nodeId)).toEqual([]);
    expect(await imageFiles(b.id, doc.nodeId)).toEqual([]);
  });
});
