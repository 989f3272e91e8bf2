import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, IMAGE_MAX_BYTES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { users } from './tables';
import { getAs, makeJpeg, makePng, multipartFile, postAs, userRow } from './test-support';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
  a = await makeCompany(t, 'Avatar Co');
});
afterAll(() => t.close());

function upload(token: string, bytes: Buffer, opts: Parameters<typeof multipartFile>[1] = {}) {
  const { payload, headers } = multipartFile(bytes, opts);
  return t.app.inject({
    method: 'POST',
    url: '/general/cos/uploadAvatar',
    payload,
    headers: { ...headers, ...bearer(token), 'accept-language': 'en' },
  });
}

/** Files stored in the user's avatar folder of the public bucket. */
async function avatarFiles(userId: number): Promise<string[]> {
  const dir = path.join(t.dataDir, 'files', 'public', 'avatars', String(userId));
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

/** Fetches a public URL the way a browser does: no token. */
async function fetchPublic(url: string) {
  return t.app.inject({ method: 'GET', url });
}

describe('POST /cos/uploadAvatar', () => {
  it('stores a PNG and its 150 px thumbnail; getUser shows the thumbnail', async () => {
    const png = await makePng(400, 300);
    const res = await upload(a.limited.token, png);
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const { headImgUrl, thumbnailUrl, originalUrl } = res.json().data;
    expect(headImgUrl).toBe(thumbnailUrl);
    expect(thumbnailUrl).toMatch(
      new RegExp(`^/general/files/public/avatars/${a.limited.id}/[0-9a-f]+-thumb\\.png$`),
    );
    expect(originalUrl).toBe(thumbnailUrl.replace('-thumb.png', '.png'));
    expect((await userRow(t, a.limited.id))!.headImgUrl).toBe(thumbnailUrl);
    const me = await getAs(t, a.limited.token, '/user/getUser');
    expect(me.json().data.headImgUrl).toBe(thumbnailUrl);

    const thumb = await fetchPublic(thumbnailUrl);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/png');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(150);
    expect(meta.width).toBe(150);
    expect(meta.height).toBeGreaterThanOrEqual(112);
    expect(meta.height).toBeLessThanOrEqual(113);

    const original = await fetchPublic(originalUrl);
    expect(original.rawPayload.equals(png)).toBe(true);
    expect(await avatarFiles(a.limited.id)).toHaveLength(2);
  });

  it('replaces a JPEG avatar and deletes the previous files', async () => {
    const first = (await upload(a.admin.token, await makePng(300, 400))).json().data;
    const jpeg = await makeJpeg(600, 200);
    const res = await upload(a.admin.token, jpeg, { filename: 'face.jpeg', contentType: 'image/jpeg' });
    const second = res.json().data;
    expect(second.thumbnailUrl).toMatch(/-thumb\.jpg$/);
    expect((await fetchPublic(first.thumbnailUrl)).statusCode).toBe(404);
    expect((await fetchPublic(first.originalUrl)).statusCode).toBe(404);
    const thumb = await fetchPublic(second.thumbnailUrl);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 150, height: 50 });
    expect(await avatarFiles(a.admin.id)).toEqual(
      [second.originalUrl, second.thumbnailUrl].map((u: string) => path.basename(u)).sort(),
    );
    // another user's avatar is untouched by it
    expect(await avatarFiles(a.limited.id)).toHaveLength(2);
  });

  it('judges by bytes: a .png-named text file is refused word for word, nothing stored', async () => {
    const before = await userRow(t, a.limited.id);
    const filesBefore = await avatarFiles(a.limited.id);
    const res = await upload(a.limited.token, Buffer.from('just some text, not a picture'), {
      filename: 'me.png',
    });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message:
        'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.',
      data: { field: 'file' },
    });
    expect((await userRow(t, a.limited.id))!.headImgUrl).toBe(before!.headImgUrl);
    expect(await avatarFiles(a.limited.id)).toEqual(filesBefore);
  });

  it('refuses a file with PNG magic bytes that does not decode', async () => {
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 1),
    ]);
    const res = await upload(a.limited.token, fake);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(res.json().message).toMatch(/^The file format is incorrect/);
  });

  it('refuses an image over 3 MB with the spec message and stores nothing', async () => {
    const user = await makeCompany(t, 'Big Co');
    const big = Buffer.alloc(Math.round(3.5 * 1024 * 1024), 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const res = await upload(user.admin.token, big, { filename: 'big.jpg', contentType: 'image/jpeg' });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'The image size exceeds 3M',
      data: { field: 'file' },
    });
    expect((await userRow(t, user.admin.id))!.headImgUrl).toBeNull();
    expect(await avatarFiles(user.admin.id)).toEqual([]);
  });

  it('refuses a file one byte over 3 MB, which the multipart limit still reads whole', async () => {
    const user = await makeCompany(t, 'Edge Co');
    const big = Buffer.alloc(IMAGE_MAX_BYTES + 1, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const res = await upload(user.admin.token, big, { filename: 'edge.jpg', contentType: 'image/jpeg' });
    expect(res.json()).toMatchObject({ message: 'The image size exceeds 3M', data: { field: 'file' } });
    expect(await avatarFiles(user.admin.id)).toEqual([]);
  });

  it('names the file field when it is missing', async () => {
    const wrongField = await upload(a.limited.token, await makePng(10, 10), { field: 'avatar' });
    expect(wrongField.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    const json = await postAs(t, a.limited.token, '/cos/uploadAvatar', {});
    expect(json.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
  });
});

describe('POST /cos/removeAvatar', () => {
  it('clears the avatar and deletes its files', async () => {
    const user = await makeCompany(t, 'Remove Co');
    const { thumbnailUrl, originalUrl } = (await upload(user.limited.token, await makePng(200, 200))).json()
      .data;
    const res = await postAs(t, user.limited.token, '/cos/removeAvatar', {});
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect((await userRow(t, user.limited.id))!.headImgUrl).toBeNull();
    expect((await getAs(t, user.limited.token, '/user/getUser')).json().data.headImgUrl).toBeNull();
    expect((await fetchPublic(thumbnailUrl)).statusCode).toBe(404);
    expect((await fetchPublic(originalUrl)).statusCode).toBe(404);
    expect(await avatarFiles(user.limited.id)).toEqual([]);
  });

  it('is harmless without an avatar and never deletes files outside the caller folder', async () => {
    const user = await makeCompany(t, 'Foreign Co');
    const { thumbnailUrl } = (await upload(user.admin.token, await makePng(50, 50))).json().data;
    // a head image URL pointing at someone else's file (e.g. set by an old import) is not ours to delete
    await t.db.update(users).set({ headImgUrl: thumbnailUrl }).where(eq(users.id, user.limited.id));
    expect((await postAs(t, user.limited.token, '/cos/removeAvatar', {})).json().code).toBe(0);
    expect((await fetchPublic(thumbnailUrl)).statusCode).toBe(200);
    expect((await postAs(t, user.limited.token, '/cos/removeAvatar', {})).json().code).toBe(0);
  });
});
