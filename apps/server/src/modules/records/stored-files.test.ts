/**
 * Record pictures and files are private: they open only through the signed links handed to
 * callers who may read the record. Written as the attacks: no token, another company's token,
 * a member whose data permission on the item is none, a forged, altered or expired link, and
 * the public address such a file had before.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, type FieldDef, type StoredFile } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { FILE_LINK_WINDOW_SECONDS } from '../../platform/file-links';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { makeDocTemplate } from '../templates/doc-test-support';
import { makePng } from '../users/test-support';
import { moveRecordFilesToPrivate } from './stored-files';
import { makeRecords, multipartForm, recordsOf } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

const FIELDS: FieldDef[] = [
  { key: 'f1', name: 'photo', type: 8 },
  { key: 'f2', name: 'manual', type: 9 },
  { key: 'f3', name: 'note', type: 5 },
];

/** an item a.limited may read, one it may not see at all, and a record holding a picture and a file */
let open: { itemId: number; nodeId: number };
let hidden: { itemId: number; nodeId: number };
let picture: StoredFile;
let manual: StoredFile;
let hiddenPicture: StoredFile;
let png: Buffer;
const PDF = Buffer.from('%PDF-1.4 confidential inspection report');

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Private files A');
  b = await makeCompany(t, 'Private files B');
  open = await makeItem(t, a.id, { fields: FIELDS });
  hidden = await makeItem(t, a.id, { fields: FIELDS });
  await setPermissions(t, open.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
  await setPermissions(t, hidden.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
  png = await makePng(400, 200);
  picture = (await upload(a.admin.token, open.itemId, 'f1', png, 'site.png')).json().data;
  manual = (await upload(a.admin.token, open.itemId, 'f2', PDF, 'report.pdf')).json().data;
  hiddenPicture = (await upload(a.admin.token, hidden.itemId, 'f1', png, 'secret.png')).json().data;
  for (const [item, f1] of [
    [open, picture],
    [hidden, hiddenPicture],
  ] as const) {
    const add = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/record/add',
      headers: bearer(a.admin.token),
      payload: { itemId: item.itemId, values: { f1: [f1], f2: item === open ? [manual] : null } },
    });
    expect(add.json().code, add.body).toBe(0);
  }
});

afterAll(() => t.close());

function upload(token: string, itemId: number, field: string, bytes: Buffer, filename: string) {
  const { payload, headers } = multipartForm({ itemId, field }, { bytes, filename });
  return t.app.inject({
    method: 'POST',
    url: '/general/smartdata/record/upload',
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en', ...headers } });
}

async function listAs(token: string, itemId: number) {
  return (await get(`/general/smartdata/record/list?itemId=${itemId}`, bearer(token))).json();
}

/** the reference part of a signed link, and its query */
function split(link: string) {
  const [ref, query = ''] = link.split('?');
  return { ref: ref!, params: new URLSearchParams(query) };
}

function expectNoBytes(res: Awaited<ReturnType<typeof get>>, what: string) {
  expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
  expect(res.rawPayload.includes(png.subarray(0, 64)), what).toBe(false);
  expect(res.body, what).not.toContain('confidential');
}

describe('record pictures and files are private', () => {
  it('an upload lands in the private bucket and answers signed links that open the bytes', async () => {
    for (const file of [picture, manual, hiddenPicture]) {
      expect(file.url).toMatch(
        /^\/general\/files\/records\/\d+\/\d+\/[0-9a-f]{32}\.(png|pdf)\?exp=\d+&sig=[\w-]{43}$/,
      );
    }
    expect(picture.thumbUrl).toMatch(/-thumb\.png\?exp=\d+&sig=/);
    const key = split(picture.url).ref.replace('/general/files/', '');
    expect(existsSync(path.join(t.dataDir, 'files', 'private', key))).toBe(true);
    expect(existsSync(path.join(t.dataDir, 'files', 'public', key))).toBe(false);
    const res = await get(picture.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(res.rawPayload.equals(png)).toBe(true);
    const pdf = await get(manual.url);
    expect(pdf.rawPayload.equals(PDF)).toBe(true);
    expect(pdf.headers['content-disposition']).toBe('attachment');
    expect(pdf.headers['content-security-policy']).toContain('sandbox');
  });

  it('records keep the bucket-neutral reference, never a link or a bucket', async () => {
    const [row] = await recordsOf(t, open.itemId);
    expect(row!.values).toEqual({
      f1: [{ ...picture, url: split(picture.url).ref, thumbUrl: split(picture.thumbUrl!).ref }],
      f2: [{ ...manual, url: split(manual.url).ref }],
    });
    expect(JSON.stringify(row!.values)).not.toMatch(/public|\?|sig=/);
  });

  it('without a token, or with any token but no signature, the file sends no bytes', async () => {
    for (const file of [picture, manual]) {
      const { ref } = split(file.url);
      expectNoBytes(await get(ref), 'no token');
      for (const token of [a.admin.token, a.limited.token, b.admin.token]) {
        expectNoBytes(await get(ref, bearer(token)), 'bearer without signature');
      }
    }
  });

  it("another company's member gets no link and no bytes", async () => {
    expect(await listAs(b.admin.token, open.itemId)).toMatchObject({ code: ERROR_CODES.NOT_FOUND });
    expectNoBytes(await get(split(picture.url).ref, bearer(b.admin.token)), 'other company');
    // copying the reference into a record of their own company does not make it open either
    const theirs = await makeItem(t, b.id, { fields: FIELDS });
    await makeRecords(t, b.id, theirs.itemId, [
      {
        values: { f1: [{ ...picture, url: split(picture.url).ref, thumbUrl: split(picture.thumbUrl!).ref }] },
      },
    ]);
    const list = await listAs(b.admin.token, theirs.itemId);
    const copied = list.data.list[0].values.f1[0] as StoredFile;
    expect(copied.url).not.toContain('sig=');
    expectNoBytes(await get(copied.url, bearer(b.admin.token)), 'copied reference');
  });

  it('a member whose data permission on the item is none gets no link and no bytes', async () => {
    expect(await listAs(a.limited.token, hidden.itemId)).toMatchObject({ code: ERROR_CODES.NOT_FOUND });
    const { ref } = split(hiddenPicture.url);
    expectNoBytes(await get(ref, bearer(a.limited.token)), 'none permission');
    // the item it may read hands out links for its own files only
    const readable = await listAs(a.limited.token, open.itemId);
    const linked = readable.data.list[0].values.f1[0] as StoredFile;
    expect((await get(linked.url)).rawPayload.equals(png)).toBe(true);
    expect(split(linked.url).ref).not.toBe(ref);
  });

  it('a tampered, borrowed or expired link sends no bytes', async () => {
    const { ref, params } = split(picture.url);
    const exp = params.get('exp')!;
    const sig = params.get('sig')!;
    const flipped = sig[5] === 'A' ? 'B' : 'A';
    const attempts = [
      `${ref}?exp=${exp}&sig=${sig.slice(0, 5)}${flipped}${sig.slice(6)}`,
      `${ref}?exp=${Number(exp) + FILE_LINK_WINDOW_SECONDS}&sig=${sig}`,
      `${ref}?exp=${exp}`,
      `${ref}?sig=${sig}`,
      `${ref}?exp=${exp}&sig=${sig}x`,
      // the signature of one file does not open another
      `${split(hiddenPicture.url).ref}?exp=${exp}&sig=${sig}`,
      `${split(picture.thumbUrl!).ref}?exp=${exp}&sig=${sig}`,
      // nor a path that walks out of the record area
      `${ref.replace('/records/', '/records/../private/records/')}?exp=${exp}&sig=${sig}`,
      `/general/files/records/..%2f..%2fsecrets%2ffile-links.key?exp=${exp}&sig=${sig}`,
    ];
    for (const url of attempts) {
      const res = await get(url);
      expectNoBytes(res, url);
      expect(res.statusCode, url).toBe(404);
    }
    const key = ref.replace('/general/files/', '');
    const old = t.app.fileLinks.link(key, Date.now() - 3 * FILE_LINK_WINDOW_SECONDS * 1000);
    const expired = await get(old);
    expectNoBytes(expired, 'expired');
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ code: ERROR_CODES.FORBIDDEN });
    expect(expired.json().message).toContain('expired');
  });

  it('the public address of a record picture is 404', async () => {
    const key = split(picture.url).ref.replace(/^\/general\/files\/(public\/)?/, '');
    const publicUrl = `/general/files/public/${key}`;
    expectNoBytes(await get(publicUrl), publicUrl);
    expect((await get(publicUrl)).statusCode).toBe(404);
  });

  it('an edit that sends the signed links back keeps the references', async () => {
    const list = await listAs(a.admin.token, open.itemId);
    const record = list.data.list[0];
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/record/update',
      headers: bearer(a.admin.token),
      payload: { itemId: open.itemId, id: record.id, values: { f1: record.values.f1, f3: 'checked' } },
    });
    expect(res.json().code, res.body).toBe(0);
    const [row] = await recordsOf(t, open.itemId);
    expect((row!.values.f1 as StoredFile[])[0]!.url).toBe(split(picture.url).ref);
    expect(JSON.stringify(row!.values)).not.toContain('sig=');
  });

  it('a document filled with the record shows the picture through a signed link', async () => {
    const { nodeId } = await makeDocTemplate(t, a.id, {
      html: '<p><span data-field="f1">photo</span> <span data-field="f2">manual</span></p>',
      itemId: open.itemId,
    });
    const [row] = await recordsOf(t, open.itemId);
    const res = await get(
      `/general/smartdata/template/render?id=${nodeId}&itemId=${open.itemId}&recordId=${row!.id}`,
      bearer(a.admin.token),
    );
    expect(res.json().code, res.body).toBe(0);
    const html: string = res.json().data.html;
    const src = /<img src="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    const href = /<a href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    expect(src).toMatch(/^\/general\/files\/records\/.+\?exp=\d+&sig=/);
    expect((await get(src!)).rawPayload.equals(png)).toBe(true);
    expect((await get(href!)).rawPayload.equals(PDF)).toBe(true);
  });

  it('a record arriving on the live stream carries signed links', async () => {
    const socket = await t.app.injectWS(
      `/general/smartdata/live?token=${encodeURIComponent(a.limited.token)}`,
    );
    const messages: Array<{ type: string; records?: Array<{ values: Record<string, StoredFile[]> }> }> = [];
    const arrived = new Promise<void>((resolve) => {
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)));
        if (messages.some((m) => m.type === 'records')) resolve();
      });
    });
    try {
      await new Promise<void>((resolve) => {
        socket.on('message', () => resolve());
        socket.send(JSON.stringify({ subscribe: [open.itemId] }));
      });
      const add = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/record/add',
        headers: bearer(a.admin.token),
        payload: { itemId: open.itemId, values: { f1: [picture] } },
      });
      expect(add.json().code, add.body).toBe(0);
      await arrived;
    } finally {
      socket.terminate();
    }
    const live = messages.find((m) => m.type === 'records')!.records![0]!.values.f1![0]!;
    expect(live.url).toMatch(/\?exp=\d+&sig=/);
    expect((await get(live.url)).rawPayload.equals(png)).toBe(true);
  });
});

describe('record files stored publicly by earlier versions', () => {
  async function oldStyleRecord(company: TestCompany) {
    const item = await makeItem(t, company.id, { fields: FIELDS });
    const key = `records/${company.id}/${item.itemId}/00112233445566778899aabbccddeeff`;
    const publicDir = path.join(t.dataDir, 'files', 'public');
    await mkdir(path.dirname(path.join(publicDir, key)), { recursive: true });
    await writeFile(path.join(publicDir, `${key}.png`), png);
    await writeFile(path.join(publicDir, `${key}-thumb.png`), png);
    await writeFile(path.join(publicDir, `${key}.pdf`), PDF);
    const oldUrl = `/general/files/public/${key}`;
    await makeRecords(t, company.id, item.itemId, [
      {
        values: {
          f1: [{ url: `${oldUrl}.png`, name: 'old.png', size: png.length, thumbUrl: `${oldUrl}-thumb.png` }],
          f2: [{ url: `${oldUrl}.pdf`, name: 'old.pdf', size: PDF.length }],
          f3: 'from before',
        },
      },
    ]);
    return { item, key, oldUrl };
  }

  it('move to the private bucket at start-up: the old public URL is 404, readers get working links', async () => {
    const { item, key, oldUrl } = await oldStyleRecord(a);
    const moved = await moveRecordFilesToPrivate(t.db, t.app.storage, t.app.log);
    expect(moved).toBe(3);
    for (const suffix of ['.png', '-thumb.png', '.pdf']) {
      expect(existsSync(path.join(t.dataDir, 'files', 'public', `${key}${suffix}`))).toBe(false);
      expect(existsSync(path.join(t.dataDir, 'files', 'private', `${key}${suffix}`))).toBe(true);
      const res = await get(`${oldUrl}${suffix}`);
      expectNoBytes(res, suffix);
      expect(res.statusCode).toBe(404);
    }
    const [row] = await recordsOf(t, item.itemId);
    expect(row!.values).toEqual({
      f1: [
        {
          url: `/general/files/${key}.png`,
          name: 'old.png',
          size: png.length,
          thumbUrl: `/general/files/${key}-thumb.png`,
        },
      ],
      f2: [{ url: `/general/files/${key}.pdf`, name: 'old.pdf', size: PDF.length }],
      f3: 'from before',
    });
    const list = await listAs(a.admin.token, item.itemId);
    const [pictureLink] = list.data.list[0].values.f1 as StoredFile[];
    expect((await get(pictureLink!.url)).rawPayload.equals(png)).toBe(true);
    expect((await get(list.data.list[0].values.f2[0].url)).rawPayload.equals(PDF)).toBe(true);
    // nothing left to do on the next start
    expect(await moveRecordFilesToPrivate(t.db, t.app.storage, t.app.log)).toBe(0);
  });

  it('the server moves them when it starts', async () => {
    const { key, oldUrl } = await oldStyleRecord(b);
    expect((await get(`${oldUrl}.png`)).statusCode).toBe(404);
    const restarted = await buildApp({
      config: { ...t.app.config, mqttPort: null },
      db: t.db,
      logger: false,
    });
    try {
      await restarted.ready();
    } finally {
      await restarted.close();
    }
    expect(existsSync(path.join(t.dataDir, 'files', 'public', `${key}.png`))).toBe(false);
    expect(existsSync(path.join(t.dataDir, 'files', 'private', `${key}.png`))).toBe(true);
  });
});
