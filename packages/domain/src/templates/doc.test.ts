import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../data/types';
import {
  escapeHtml,
  placeholderHtml,
  placeholderKeys,
  renderDocTemplate,
  unknownPlaceholder,
  valueHtml,
} from './doc';

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', type: 1, decimals: 2 },
  { key: 'f2', name: 'count', type: 10 },
  { key: 'f3', name: 'note', type: 5 },
  { key: 'f4', name: 'day', type: 4, dateFormat: 'yyyy-MM-dd' },
  { key: 'f5', name: 'photo', type: 8 },
  { key: 'f6', name: 'memo', type: 6 },
  { key: 'f7', name: 'price', type: 2 },
  { key: 'f8', name: 'doc', type: 9 },
];

describe('placeholders', () => {
  it('finds the keys of chip elements, once each, in order', () => {
    const html = `<p>${placeholderHtml('f2', 'count')} and <span data-field="f1" class="x">温度</span> ${placeholderHtml('f2', 'count')}</p><p><span>plain</span></p>`;
    expect(placeholderKeys(html)).toEqual(['f2', 'f1']);
  });

  it('names the first placeholder that is not a field of the item; ts is always known', () => {
    expect(
      unknownPlaceholder(`<p>${placeholderHtml('f1', 'a')}${placeholderHtml('ts', 't')}</p>`, FIELDS),
    ).toBe(null);
    expect(
      unknownPlaceholder(`<p>${placeholderHtml('f1', 'a')}${placeholderHtml('f99', 'x')}</p>`, FIELDS),
    ).toBe('f99');
    expect(unknownPlaceholder('<p>no placeholders</p>', [])).toBe(null);
  });

  it('escapes the key and label it writes', () => {
    expect(placeholderHtml('f1', '<b>"a"</b>')).toBe(
      '<span data-field="f1">&lt;b&gt;&quot;a&quot;&lt;/b&gt;</span>',
    );
  });
});

describe('renderDocTemplate', () => {
  it('fills numbers with the field decimals, dates with its format, text as text', () => {
    const html = `<h1>Report</h1><p>T=${placeholderHtml('f1', '温度')} n=${placeholderHtml('f2', 'count')} note=${placeholderHtml('f3', 'note')} day=${placeholderHtml('f4', 'day')} price=${placeholderHtml('f7', 'price')}</p>`;
    const out = renderDocTemplate(html, FIELDS, {
      f1: 21.5,
      f2: 7,
      f3: 'ok',
      f4: '2025-03-01T02:00:00.000Z',
      f7: 3,
    });
    expect(out).toBe(
      '<h1>Report</h1><p>T=<span class="tpl-value" data-field="f1">21.50</span> n=<span class="tpl-value" data-field="f2">7</span> note=<span class="tpl-value" data-field="f3">ok</span> day=<span class="tpl-value" data-field="f4">2025-03-01</span> price=<span class="tpl-value" data-field="f7">3.00</span></p>',
    );
  });

  it('writes the record time in the company zone for ts', () => {
    const out = renderDocTemplate(
      `<p>${placeholderHtml('ts', 'time')}</p>`,
      FIELDS,
      {},
      {
        ts: '2025-03-01T02:00:00.000Z',
      },
    );
    expect(out).toBe('<p><span class="tpl-value" data-field="ts">2025-03-01 10:00:00</span></p>');
    expect(
      renderDocTemplate(
        `<p>${placeholderHtml('ts', 'time')}</p>`,
        FIELDS,
        {},
        { ts: '2025-03-01T02:00:00.000Z', tz: 'UTC' },
      ),
    ).toContain('2025-03-01 02:00:00');
  });

  it('escapes an XSS attempt in a value: no tag, no handler survives', () => {
    const attack = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const out = renderDocTemplate(`<p>${placeholderHtml('f3', 'note')}</p>`, FIELDS, { f3: attack });
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
    expect(out).toContain(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
    );
  });

  it('keeps long text line breaks as <br> but escapes the rest', () => {
    const out = renderDocTemplate(placeholderHtml('f6', 'memo'), FIELDS, { f6: 'a<b>\nline 2' });
    expect(out).toBe('<span class="tpl-value" data-field="f6">a&lt;b&gt;<br>line 2</span>');
  });

  it('shows pictures as <img> of the stored URL and refuses other URLs', () => {
    const out = renderDocTemplate(placeholderHtml('f5', 'photo'), FIELDS, {
      f5: [
        { url: '/general/files/1/a.png', name: 'a "b".png', size: 10 },
        { url: 'javascript:alert(1)', name: 'bad', size: 1 },
        { url: '/general/files/1/x" onerror="alert(1).png', name: 'q', size: 1 },
      ],
    });
    expect(out).toBe(
      '<span class="tpl-value" data-field="f5"><img src="/general/files/1/a.png" alt="a &quot;b&quot;.png"></span>',
    );
  });

  it('links stored files by name', () => {
    expect(valueHtml(FIELDS[7]!, [{ url: '/general/files/2/r.pdf', name: '<r>.pdf', size: 3 }])).toBe(
      '<a href="/general/files/2/r.pdf">&lt;r&gt;.pdf</a>',
    );
  });

  it('leaves empty values and removed fields empty, and other spans untouched', () => {
    const html = `<p><span class="note">keep</span>${placeholderHtml('f2', 'count')}${placeholderHtml('f42', 'gone')}</p>`;
    const out = renderDocTemplate(html, FIELDS, { f2: null });
    expect(out).toBe(
      '<p><span class="note">keep</span><span class="tpl-value" data-field="f2"></span><span class="tpl-value" data-field="f42"></span></p>',
    );
  });

  it('does not treat a chip whose label holds markup as a placeholder', () => {
    const html = '<span data-field="f3"><b>note</b></span>';
    expect(renderDocTemplate(html, FIELDS, { f3: 'x' })).toBe(html);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
