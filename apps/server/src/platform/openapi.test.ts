import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

it('serves OpenAPI generated from the route schemas, covering every declared route', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/general/docs/json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  expect(doc.openapi).toMatch(/^3\./);
  for (const route of t.app.declaredRoutes) {
    if (route.url.includes('*')) continue;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    expect(doc.paths[path], `${route.method} ${route.url}`).toBeDefined();
  }
  expect(doc.paths['/general/user/access/getToken'].post.requestBody.content).toHaveProperty(
    'application/x-www-form-urlencoded',
  );
});
