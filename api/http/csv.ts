/** A number given as its exact decimal text (a `numeric` of PostgreSQL's), written as it is: never through a float. */
export interface CsvDecimal {
  readonly decimal: string;
}

/** One cell of an export: text is kept as text; a number (JS or exact decimal) is written as a number; null is empty. */
export type CsvCell = string | number | CsvDecimal | null;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Exact decimal text as a number cell; null stays empty. Throws on text that is no decimal, which would be written raw. */
export function decimal(text: string | null): CsvDecimal | null {
  if (text === null) return null;
  if (!DECIMAL.test(text)) throw new TypeError(`not a decimal number: ${JSON.stringify(text)}`);
  return { decimal: text };
}

/**
 * Characters that make a spreadsheet run a text cell as a formula (OWASP's CSV injection list: = + - @, tab, CR,
 * and the full-width forms of the first four, which some spreadsheets read as the same).
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * One cell as RFC 4180 writes it. Text that a spreadsheet would run is kept as text with a leading `'` (then quoted if
 * it needs it, as any text); a number, even a negative one, is written as a number.
 */
function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return value.decimal;
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of a CSV file, with its CRLF: the one writer of every export. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;
