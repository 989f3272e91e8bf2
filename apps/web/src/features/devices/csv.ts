/**
 * CSV files made in the browser (the operation log's export, a registered batch's secrets):
 * RFC 4180 quoting, CRLF lines, and a byte-order mark so spreadsheet programs read UTF-8
 * (Chinese names) as such. A cell that starts like a formula is prefixed with an apostrophe,
 * so a crafted detail text cannot run as a formula when the file is opened.
 */
const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: ReadonlyArray<ReadonlyArray<unknown>>, bom = true): string {
  const lines = rows.map((row) => row.map(csvCell).join(','));
  return `${bom ? '\uFEFF' : ''}${lines.join('\r\n')}\r\n`;
}

/** Offers the text as a file download. */
export function saveText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/** Offers the bytes as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
