import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, placeholderHtml } from '@platform/domain';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { makePng, multipartFile } from '../users/test-support';
import { makeDocTemplate, templateRow } from './doc-test-support';

const SECRET = 'secret body of A';

export const docTemplateRouteCases: RouteCases = {
  'GET /general/smartdata/template/list': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDocTemplate(t, a.id, { name: 'secret tpl', html: `<p>${SECRET}</p>` });
      return {
        request: { method: 'GET', url: '/general/smartdata/template/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((r: { id: number }) => r.id)).not.toContain(victim.nodeId);
          expect(res.body).not.toContain('secret tpl');
        },
      };
    },
  },
  'GET /general/smartdata/template/get': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDocTemplate(t, a.id, { html: `<p>${SECRET}</p>` });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/template/get?id=${victim.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'POST /general/smartdata/template/save': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDocTemplate(t, a.id, { html: `<p>${SECRET}</p>` });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/template/save',
          payload: { id: victim.nodeId, html: '<p>overwritten</p>' },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect((await templateRow(t, victim.nodeId)).content).toEqual({
            html: `<p>${SECRET}</p>`,
            itemId: null,
          });
        },
      };
    },
  },
  'GET /general/smartdata/template/render': {
    attack: async ({ t, a, b }) => {
      // A's item and record, filled through B's own template: the item is absent for B
      const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      const [recordId] = await makeRecords(t, a.id, item.itemId, [{ values: { f3: SECRET } }]);
      const own = await makeDocTemplate(t, b.id, { html: `<p>${placeholderHtml('ts', 'time')}</p>` });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/template/render?id=${own.nodeId}&itemId=${item.itemId}&recordId=${recordId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
  'POST /general/smartdata/template/image': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDocTemplate(t, a.id);
      const form = multipartFile(await makePng(8, 8));
      return {
        request: {
          method: 'POST',
          url: `/general/smartdata/template/image?id=${victim.nodeId}`,
          payload: form.payload,
          headers: { ...form.headers, ...bearer(b.admin.token) },
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          const stored = path.join(t.dataDir, 'files', 'public', 'templates');
          expect(await readdir(stored, { recursive: true }).catch(() => [])).not.toContainEqual(
            expect.stringContaining(`/${victim.nodeId}/`),
          );
        },
      };
    },
  },
};
