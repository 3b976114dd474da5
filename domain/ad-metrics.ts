/**
 * TikTok sends report metrics as strings (`"76.73"`, counts sometimes `"10505.0"`, `"-"` when not computable) and
 * some sources as JSON numbers (§7.2). Money stays an exact decimal string for PostgreSQL `numeric`; counts become
 * integers; `"-"`, empty and missing values become null.
 */

export class MetricFormatError extends Error {
  constructor(
    readonly metric: string,
    readonly value: unknown,
    reason: string,
  ) {
    super(`metric ${metric}: ${JSON.stringify(value)} ${reason}`);
    this.name = 'MetricFormatError';
  }
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function decimalText(metric: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MetricFormatError(metric, value, 'is not a finite number');
    // Integers print exactly; a float from JSON prints as its shortest round-trip decimal, the text TikTok sent.
    return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  }
  if (typeof value !== 'string') throw new MetricFormatError(metric, value, 'is neither a string nor a number');
  const text = value.trim();
  if (text === '' || text === '-') return null;
  if (!DECIMAL.test(text)) throw new MetricFormatError(metric, value, 'is not a decimal number');
  return text;
}

/** The common shapes, already canonical: `"0"`, `"76.73"`, `"10505"` (no leading or trailing zeros). */
const CANONICAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;
/** The next most common: canonical but for trailing zeros after the point (`"0.00"`, `"12.50"`, `"10505.0"`). */
const TRAILING_ZEROS = /^(0|[1-9]\d*)\.(\d*?)0+$/;

/** An exact decimal as text (e.g. `"76.73"`), or null. Never goes through a float. */
export function parseDecimalMetric(metric: string, value: unknown): string | null {
  if (typeof value === 'string') {
    if (CANONICAL.test(value)) return value;
    const zeros = TRAILING_ZEROS.exec(value);
    if (zeros) return zeros[2] ? `${zeros[1]}.${zeros[2]}` : (zeros[1] as string);
  }
  const text = decimalText(metric, value);
  if (text === null || /e/i.test(text)) return text;
  const negative = text.startsWith('-');
  const unsigned = text.replace(/^[+-]/, '');
  const [whole = '', fraction = ''] = unsigned.split('.');
  const trimmedWhole = whole.replace(/^0+(?=\d)/, '') || '0';
  const trimmedFraction = fraction.replace(/0+$/, '');
  const canonical = trimmedFraction === '' ? trimmedWhole : `${trimmedWhole}.${trimmedFraction}`;
  return negative && canonical !== '0' ? `-${canonical}` : canonical;
}

/** A whole count (`"10505"`, `"10505.0"`, `10505`), or null; a fractional or negative count is an error. */
export function parseCountMetric(metric: string, value: unknown): number | null {
  if (typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value)) return Number(value);
  const decimal = parseDecimalMetric(metric, value);
  if (decimal === null) return null;
  if (!/^\d+$/.test(decimal)) throw new MetricFormatError(metric, value, 'is not a whole non-negative count');
  const count = Number(decimal);
  if (!Number.isSafeInteger(count)) throw new MetricFormatError(metric, value, 'is too large for a count');
  return count;
}

/** `1.5e-3` → `0.0015`: a decimal in plain notation, without going through a float. */
function plain(decimal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d*))?e([+-]?\d+)$/i.exec(decimal);
  if (match === null) return decimal;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(exponent);
  const padded = point <= 0 ? `${'0'.repeat(1 - point)}${digits}` : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  return parseDecimalMetric('sum', `${sign}${padded.slice(0, at)}.${padded.slice(at)}`) as string;
}

/** The exact sum of two decimals from `parseDecimalMetric` (null when both are null; a null adds nothing). */
export function addDecimals(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  const [x, y] = [plain(a), plain(b)];
  const scale = Math.max(x.split('.')[1]?.length ?? 0, y.split('.')[1]?.length ?? 0);
  const scaled = (text: string) => {
    const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
    const units = BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
    return text.startsWith('-') ? -units : units;
  };
  const sum = scaled(x) + scaled(y);
  const digits = (sum < 0n ? -sum : sum).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return parseDecimalMetric('sum', `${sum < 0n ? '-' : ''}${text}`);
}
