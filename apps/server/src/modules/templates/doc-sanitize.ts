/**
 * The allow-list a document / rich-text template body is cleaned with on save (sanitize-html):
 * text structure, lists, tables, links and images only; no script, style, iframe, form or
 * event-handler attribute; links only http(s)/mailto, images only http(s) or a path on this
 * server; placeholders `<span data-field="KEY">` keep their key only when it is a field key or
 * `ts` (contract templates: any word key, checked against the order fields by the domain).
 * What is stored is the cleaned HTML.
 */
import sanitizeHtml from 'sanitize-html';

const PLACEHOLDER_KEY = /^(f\d{1,6}|ts)$/;

/** The allow-list, with the placeholder keys a span may keep. */
const optionsFor = (placeholderKey: RegExp): sanitizeHtml.IOptions => ({
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'blockquote',
    'ul',
    'ol',
    'li',
    'hr',
    'code',
    'pre',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'a',
    'img',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
    span: ['data-field'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    span: (tagName, attribs) => {
      const key = attribs['data-field'];
      const kept: sanitizeHtml.Attributes = key && placeholderKey.test(key) ? { 'data-field': key } : {};
      return { tagName, attribs: kept };
    },
  },
});

const OPTIONS = optionsFor(PLACEHOLDER_KEY);

/** The body as stored: only allow-listed markup is left. */
export function sanitizeTemplateHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Contract template placeholders are named like `orderNo`; which names are known is the domain's check. */
const CONTRACT_OPTIONS = optionsFor(/^[A-Za-z][A-Za-z0-9]{0,39}$/);

/** A contract template's body as stored: the same allow-list, placeholders named by words. */
export function sanitizeContractHtml(html: string): string {
  return sanitizeHtml(html, CONTRACT_OPTIONS).trim();
}
