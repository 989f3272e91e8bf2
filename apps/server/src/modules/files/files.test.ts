import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { makeJpeg, makePng } from '../users/test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.storage.put('private', 'secret.txt', Buffer.from('PRIVATE-SECRET'), 'text/plain');
  await writeFile(path.join(t.dataDir, 'files', 'outside.txt'), 'OUTSIDE-SECRET');
});
afterAll(() => t.close());

function get(url: string) {
  return t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
}

describe('GET /files/public/*', () => {
  it('serves a public file without a token, typed by its bytes not its name', async () => {
    const png = await makePng(20, 10);
    await t.app.storage.put('public', 'logos/9/looks-like.jpg', png, 'image/jpeg');
    const res = await get('/general/files/public/logos/9/looks-like.jpg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.equals(png)).toBe(true);

    const jpeg = await makeJpeg(20, 10);
    await t.app.storage.put('public', 'avatars/3/a.png', jpeg, 'image/png');
    expect((await get('/general/files/public/avatars/3/a.png')).headers['content-type']).toBe('image/jpeg');
  });

  it('serves bytes of no known type as a download that cannot run as a page', async () => {
    await t.app.storage.put(
      'public',
      'docs/page.html',
      Buffer.from('<script>alert(1)</script>'),
      'text/html',
    );
    const res = await get('/general/files/public/docs/page.html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers the 404 envelope for an absent file or a folder', async () => {
    for (const url of ['/general/files/public/avatars/1/nothing.png', '/general/files/public/avatars']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({
        code: ERROR_CODES.NOT_FOUND,
        message: 'The requested resource does not exist',
        data: null,
      });
    }
  });

  it('never leaves the public bucket', async () => {
    await mkdir(path.join(t.dataDir, 'files', 'public', 'x'), { recursive: true });
    const attempts = [
      '/general/files/public/../private/secret.txt',
      '/general/files/public/..%2fprivate%2fsecret.txt',
      '/general/files/public/%2e%2e/private/secret.txt',
      '/general/files/public/x/..%2F..%2Fprivate/secret.txt',
      '/general/files/public/..%5cprivate%5csecret.txt',
      '/general/files/public/../outside.txt',
      '/general/files/public/%2e%2e%2foutside.txt',
      '/general/files/public//etc/passwd',
      '/general/files/public/%2fetc%2fpasswd',
      '/general/files/public/.hidden',
      '/general/files/public/x/%00secret.txt',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.body, url).not.toContain('SECRET');
      expect(res.body, url).not.toContain('root:');
      // a NUL is refused with every other request carrying one (400 naming the path)
      expect(res.statusCode, url).toBe(url.includes('%00') ? 400 : 404);
    }
  });
});
