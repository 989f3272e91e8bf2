import { inflateSync } from 'node:zlib';

/** The text of every Flate stream of a PDF, concatenated. */
export function inflatedStreams(pdf: Buffer): string {
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
  return out.join('\n');
}
