/** The web app is served compressed at build time, hashed assets cached for good, pages revalidated. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper';
import { IMMUTABLE, REVALIDATE } from './web-app';

let t: TestApp;
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const page =
  '<!doctype html><html><body><div id="root"></div><script src="/assets/app-Ab12Cd.js"></script></body></html>';

beforeAll(async () => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'platform-web-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), page);
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const asset = path.join(dist, 'assets/app-Ab12Cd.js');
  await writeFile(asset, script);
  await writeFile(`${asset}.br`, brotliCompressSync(script));
  await writeFile(`${asset}.gz`, gzipSync(script));
  t = await buildTestApp({ WEB_DIST: dist });
});

afterAll(async () => {
  await t.close();
});

describe('the web app', () => {
  it('sends the brotli or gzip copy made at build time, whichever the browser accepts', async () => {
    const br = await t.app.inject({
      url: '/assets/app-Ab12Cd.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);
    const gz = await t.app.inject({ url: '/assets/app-Ab12Cd.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await t.app.inject({
      url: '/assets/app-Ab12Cd.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
  });

  it('caches hashed assets for a year and makes the browser revalidate everything else', async () => {
    const asset = await t.app.inject({ url: '/assets/app-Ab12Cd.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    for (const url of [
      '/',
      '/index.html',
      '/favicon.svg',
      '/smartdata/datacapsule',
      '/login?redirect=%2Fhome',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(REVALIDATE);
    }
    const deep = await t.app.inject({ url: '/smartdata/datacapsule' });
    expect(deep.headers['content-type']).toContain('text/html');
    expect(deep.body).toBe(page);
  });

  it('keeps the API out of the fallback: an unknown API path is an enveloped 404', async () => {
    const res = await t.app.inject({ url: '/general/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(40400);
  });
});
