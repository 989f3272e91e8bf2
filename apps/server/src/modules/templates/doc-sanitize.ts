/**
 * The allow-list a document / rich-text template body is cleaned with on save (sanitize-html):
 * text structure, lists, tables, links and images only; no script, style, iframe, form or
 * event-handler attribute; links only http(s)/mailto, images only http(s) or a path on this
 * server; placeholders `<span data-field="KEY">` keep their key only when it is a field key or
 * `ts`. What is stored is the cleaned HTML.
 */
import sanitizeHtml from 'sanitize-html';

const PLACEHOLDER_KEY = /^(f\d{1,6}|ts)$/;

const OPTIONS: sanitizeHtml.IOptions = {
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
      const kept: sanitizeHtml.Attributes = key && PLACEHOLDER_KEY.test(key) ? { 'data-field': key } : {};
      return { tagName, attribs: kept };
    },
  },
};

/** The body as stored: only allow-listed markup is left. */
export function sanitizeTemplateHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
