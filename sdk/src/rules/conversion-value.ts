// What a conversion is worth: one rule for the server (domain/) and the browser tag's pixel (web/src/pixel.ts).
export type ValueSource = 'order_total' | 'fixed' | 'none';

export interface ValueRule {
  valueSource: ValueSource;
  /** The configured amount for `fixed` rules (leads, signups). */
  fixedValue?: number | null;
  /** Currency of a fixed value, and the fallback currency of an order total that carries none. */
  currency?: string | null;
}

/** Found at ingest without stopping the conversion: it is still sent, without a value. */
export interface ValueWarning {
  code: 'value_unreadable';
  field: string;
  /** What was there, as JSON text, shortened. */
  found: string;
  message: string;
}

export interface ConversionValue {
  value?: number | undefined;
  currency?: string | undefined;
  warning?: ValueWarning | undefined;
}

/** A money amount given as a number or a numeric string ("46.00"); anything else is not an amount. */
export function parseAmount(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) && raw >= 0 ? raw : undefined;
  if (typeof raw !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return undefined;
  return Number(raw);
}

function currencyCode(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^[A-Za-z]{3}$/.test(raw.trim()) ? raw.trim().toUpperCase() : undefined;
}

const FOUND_MAX_CHARACTERS = 60;

function unreadable(key: string, raw: unknown, expected: string): ValueWarning {
  const json = JSON.stringify(raw) ?? String(raw);
  const found = json.length > FOUND_MAX_CHARACTERS ? `${json.slice(0, FOUND_MAX_CHARACTERS - 1)}…` : json;
  const field = `properties.${key}`;
  return { code: 'value_unreadable', field, found, message: `${field} is ${found}, not ${expected}: the conversion is sent without a value` };
}

const AMOUNT = 'an amount (a number of zero or more, such as 12.5)';
const present = (raw: unknown) => raw !== undefined && raw !== null;
/** Four decimals, as the value is stored; avoids 18.99 × 3 = 56.970000000000006. */
const roundAmount = (amount: number) => Math.round(amount * 10_000) / 10_000;

/**
 * The amount an event carries, from the first of Segment's fields it has: `total`, `value`, `revenue` (Order
 * Completed, Checkout Started, Product Viewed), else `price` × `quantity` (Product Added). The first field present
 * decides: when it holds no amount the event has none, and the warning says which field and what it held.
 */
export function eventAmount(properties: Record<string, unknown>): { amount?: number | undefined; warning?: ValueWarning | undefined } {
  const key = ['total', 'value', 'revenue'].find((name) => present(properties[name]));
  if (key !== undefined) {
    const amount = parseAmount(properties[key]);
    return amount === undefined ? { warning: unreadable(key, properties[key], AMOUNT) } : { amount };
  }
  if (!present(properties.price)) return {};
  const price = parseAmount(properties.price);
  if (price === undefined) return { warning: unreadable('price', properties.price, AMOUNT) };
  if (!present(properties.quantity)) return { amount: price };
  const quantity = Number(properties.quantity);
  if (!Number.isInteger(quantity) || quantity <= 0) return { warning: unreadable('quantity', properties.quantity, 'a whole number of items') };
  return { amount: roundAmount(price * quantity) };
}

/** Spec §6.3: a purchase is worth its order total; leads and signups a fixed configured value. */
export function conversionValue(rule: ValueRule, properties: Record<string, unknown> = {}): ConversionValue {
  if (rule.valueSource === 'fixed' && rule.fixedValue !== null && rule.fixedValue !== undefined) {
    return { value: rule.fixedValue, currency: currencyCode(rule.currency) };
  }
  if (rule.valueSource === 'order_total') {
    const { amount, warning } = eventAmount(properties);
    if (amount === undefined) return warning === undefined ? {} : { warning };
    return { value: amount, currency: currencyCode(properties.currency) ?? currencyCode(rule.currency) };
  }
  return {};
}
