import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, IMAGE_MAX_BYTES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { parseCfg } from './service';
import { companies } from './tables';
import { makeJpeg, makePng, multipartFile } from './test-support';

let t: TestApp;
let platform: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  platform = await makeCompany(t, 'Operator', { isPlatform: true });
});
afterAll(() => t.close());

function upload(token: string, bytes: Buffer, opts: Parameters<typeof multipartFile>[1] = {}) {
  const { payload, headers } = multipartFile(bytes, opts);
  return t.app.inject({
    method: 'POST',
    url: '/general/cos/uploadCompanyLogo',
    payload,
    headers: { ...headers, ...bearer(token), 'accept-language': 'en' },
  });
}

function post(url: string, token: string, payload: object) {
  return t.app.inject({
    method: 'POST',
    url: `/general${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

async function cfgOf(companyId: number) {
  const [row] = await t.db.select().from(companies).where(eq(companies.id, companyId));
  return parseCfg(row!.cfg);
}

async function storedFile(url: unknown): Promise<Buffer | null> {
  const key = t.app.storage.keyOfPublicUrl(String(url));
  return key ? t.app.storage.get('public', key) : null;
}

/** Files in the company's logo folder of the public bucket. */
async function logoFiles(companyId: number): Promise<string[]> {
  try {
    return (await readdir(path.join(t.dataDir, 'files', 'public', 'logos', String(companyId)))).sort();
  } catch {
    return [];
  }
}

describe('POST /cos/uploadCompanyLogo', () => {
  it('stores the original and a 150 px thumbnail, and cfg keeps its other keys', async () => {
    const c = await makeCompany(t, 'Logo Co');
    await t.db.update(companies).set({ cfg: '{"theme":"dark"}' }).where(eq(companies.id, c.id));
    const png = await makePng(600, 300);

    const res = await upload(c.admin.token, png);
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const { logoUrl, logoThumbnailUri } = res.json().data;
    expect(logoUrl).toMatch(new RegExp(`^/general/files/public/logos/${c.id}/[\\w-]+\\.png$`));
    expect(logoThumbnailUri).toMatch(new RegExp(`^/general/files/public/logos/${c.id}/[\\w-]+-thumb\\.png$`));

    expect((await storedFile(logoUrl))!.equals(png)).toBe(true);
    const meta = await sharp((await storedFile(logoThumbnailUri))!).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'png',
      width: 150,
      height: 75,
    });
    expect(await cfgOf(c.id)).toEqual({ theme: 'dark', logoUri: logoUrl, logoThumbnailUri });

    const company = await t.app.inject({
      method: 'GET',
      url: '/general/company/getCompany',
      headers: bearer(c.admin.token),
    });
    expect(company.json().data.logoUrl).toBe(logoThumbnailUri);
    expect(JSON.parse(company.json().data.cfg)).toMatchObject({ theme: 'dark', logoThumbnailUri });
    const list = await t.app.inject({
      method: 'GET',
      url: '/general/company/getCompanyList',
      headers: bearer(c.admin.token),
    });
    expect(list.json().data[0].logoUrl).toBe(logoThumbnailUri);
  });

  it('thumbnails a tall JPEG on its longest side and never enlarges a small image', async () => {
    const c = await makeCompany(t, 'Jpeg Co');
    const tall = await upload(c.admin.token, await makeJpeg(300, 600), {
      filename: 'logo.jpg',
      contentType: 'image/jpeg',
    });
    const tallMeta = await sharp((await storedFile(tall.json().data.logoThumbnailUri))!).metadata();
    expect([tallMeta.format, tallMeta.width, tallMeta.height]).toEqual(['jpeg', 75, 150]);

    const small = await upload(c.admin.token, await makePng(40, 20));
    const smallMeta = await sharp((await storedFile(small.json().data.logoThumbnailUri))!).metadata();
    expect([smallMeta.width, smallMeta.height]).toEqual([40, 20]);
  });

  it('removes the previous logo files when replaced', async () => {
    const c = await makeCompany(t, 'Replace Co');
    const first = (await upload(c.admin.token, await makePng(200, 200))).json().data;
    const second = (await upload(c.admin.token, await makePng(300, 100))).json().data;
    expect(await storedFile(first.logoUrl)).toBeNull();
    expect(await storedFile(first.logoThumbnailUri)).toBeNull();
    expect(await storedFile(second.logoUrl)).not.toBeNull();
    expect(await logoFiles(c.id)).toHaveLength(2);
  });

  it.each([
    ['a text file named .png', Buffer.from('hello, not an image')],
    [
      'PNG magic bytes over garbage',
      Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(500, 7)]),
    ],
  ])('refuses %s with the format message, writing nothing', async (_label, bytes) => {
    const c = await makeCompany(t, `Bad ${bytes.length}`);
    const res = await upload(c.admin.token, bytes);
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message:
        'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.',
      data: { field: 'file' },
    });
    expect(await cfgOf(c.id)).toEqual({});
    expect(await logoFiles(c.id)).toEqual([]);
  });

  it('refuses an image over 3 MB with the size message, writing nothing', async () => {
    const c = await makeCompany(t, 'Huge Co');
    const huge = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(IMAGE_MAX_BYTES + 10)]);
    const res = await upload(c.admin.token, huge);
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'The image size exceeds 3M',
      data: { field: 'file' },
    });
    expect(await cfgOf(c.id)).toEqual({});
    expect(await logoFiles(c.id)).toEqual([]);
  });

  it('names the file field when it is missing', async () => {
    const c = await makeCompany(t, 'No File Co');
    const wrongField = await upload(c.admin.token, await makePng(10, 10), { field: 'image' });
    expect(wrongField.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    const notMultipart = await post('/cos/uploadCompanyLogo', c.admin.token, {});
    expect(notMultipart.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(await logoFiles(c.id)).toEqual([]);
  });
});

describe('POST /cos/removeCompanyLogo', () => {
  it('clears the logo keys and files, keeping other cfg keys', async () => {
    const c = await makeCompany(t, 'Remove Co');
    const { logoUrl, logoThumbnailUri } = (await upload(c.admin.token, await makePng(200, 100))).json().data;
    const cfg = await cfgOf(c.id);
    await t.db
      .update(companies)
      .set({ cfg: JSON.stringify({ ...cfg, theme: 'light' }) })
      .where(eq(companies.id, c.id));

    const res = await post('/cos/removeCompanyLogo', c.admin.token, {});
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect(await cfgOf(c.id)).toEqual({ theme: 'light' });
    expect(await storedFile(logoUrl)).toBeNull();
    expect(await storedFile(logoThumbnailUri)).toBeNull();
    const company = await t.app.inject({
      method: 'GET',
      url: '/general/company/getCompany',
      headers: bearer(c.admin.token),
    });
    expect(company.json().data.logoUrl).toBeNull();

    // nothing to remove is still fine
    expect((await post('/cos/removeCompanyLogo', c.admin.token, {})).json().code).toBe(0);
  });
});

describe('POST /cos/removeSysCompanyLogo', () => {
  it("lets the platform operator clear any company's logo", async () => {
    const c = await makeCompany(t, 'Customer Co');
    const { logoThumbnailUri } = (await upload(c.admin.token, await makePng(200, 100))).json().data;
    const res = await post('/cos/removeSysCompanyLogo', platform.admin.token, { companyId: c.id });
    expect(res.json()).toMatchObject({ code: 0, message: 'Delete successfully' });
    expect(await cfgOf(c.id)).toEqual({});
    expect(await storedFile(logoThumbnailUri)).toBeNull();
  });

  it("refuses an ordinary company's administrator, even for their own company", async () => {
    const c = await makeCompany(t, 'Ordinary Co');
    await upload(c.admin.token, await makePng(200, 100));
    const before = await cfgOf(c.id);
    const other = await makeCompany(t, 'Other Co');
    for (const [token, companyId] of [
      [c.admin.token, c.id],
      [other.admin.token, c.id],
    ] as const) {
      const res = await post('/cos/removeSysCompanyLogo', token, { companyId });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    }
    expect(await cfgOf(c.id)).toEqual(before);
    await expect(storedFile(before.logoThumbnailUri)).resolves.not.toBeNull();
  });

  it('reports an unknown company by field', async () => {
    const res = await post('/cos/removeSysCompanyLogo', platform.admin.token, { companyId: 999999 });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'companyId' } });
  });
});
