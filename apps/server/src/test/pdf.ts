import { inflateSync } from 'node:zlib';

/** Every Flate stream of a PDF, inflated, in file order (streams that are not Flate are skipped). */
function streams(pdf: Buffer): string[] {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const re = />>\s*stream\r?\n/g;
  let match: RegExpExecArray | null = re.exec(raw);
  while (match) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      out.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (or the font program): skip
    }
    re.lastIndex = end + 'endstream'.length;
    match = re.exec(raw);
  }
  return out;
}

/** The text of every Flate stream of a PDF, concatenated. */
export function inflatedStreams(pdf: Buffer): string {
  return streams(pdf).join('\n');
}

/**
 * The text pdfkit drew with an embedded font, as Unicode: the glyph codes of the content streams'
 * text (TJ arrays of 4-digit hex codes) read through the font's ToUnicode map (pdfkit writes it
 * as bfrange arrays). One line per text object, pages in order. For a PDF of one embedded font
 * (the report font); a second font's codes would be read with the first one's map.
 */
export function pdfText(pdf: Buffer): string {
  const all = streams(pdf);
  const unicode = new Map<number, string>();
  for (const s of all) {
    if (!s.includes('beginbfrange')) continue;
    for (const m of s.matchAll(/<([0-9a-f]{4})>\s*<([0-9a-f]{4})>\s*\[([^\]]*)\]/gi)) {
      const start = Number.parseInt(m[1]!, 16);
      const entries = [...m[3]!.matchAll(/<([0-9a-f ]+)>/gi)].map((e) =>
        String.fromCharCode(...e[1]!.split(' ').map((h) => Number.parseInt(h, 16))),
      );
      entries.forEach((text, i) => {
        if (!unicode.has(start + i)) unicode.set(start + i, text);
      });
    }
    break;
  }
  const lines: string[] = [];
  for (const s of all) {
    if (!/\bBT\b/.test(s)) continue;
    for (const block of s.split(/\bBT\b/).slice(1)) {
      let line = '';
      for (const hex of block.matchAll(/<([0-9a-f]+)>/gi)) {
        const codes = hex[1]!;
        for (let i = 0; i + 4 <= codes.length; i += 4)
          line += unicode.get(Number.parseInt(codes.slice(i, i + 4), 16)) ?? '\ufffd';
      }
      if (line) lines.push(line);
    }
  }
  return lines.join('\n');
}

/** The number of pages of a PDF (its page objects). */
export function pdfPageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g)?.length ?? 0;
}
