export type ValueSource = 'order_total' | 'fixed' | 'none';

export interface ValueRule {
  valueSource: ValueSource;
  /** The configured amount for `fixed` rules (leads, signups). */
  fixedValue?: number | null;
  /** Currency of a fixed value, and the fallback currency of an order total that carries none. */
  currency?: string | null;
}

export interface ConversionValue {
  value?: number;
  currency?: string;
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

/** The order total of a purchase: `total`, else `value`, else `revenue` (Segment's Order Completed fields). */
export function orderTotal(properties: Record<string, unknown>): number | undefined {
  return parseAmount(properties.total) ?? parseAmount(properties.value) ?? parseAmount(properties.revenue);
}

/** Spec §6.3: a purchase is worth its order total; leads and signups a fixed configured value. */
export function conversionValue(rule: ValueRule, properties: Record<string, unknown> = {}): ConversionValue {
  if (rule.valueSource === 'fixed' && rule.fixedValue !== null && rule.fixedValue !== undefined) {
    return { value: rule.fixedValue, currency: currencyCode(rule.currency) };
  }
  if (rule.valueSource === 'order_total') {
    const value = orderTotal(properties);
    if (value === undefined) return {};
    return { value, currency: currencyCode(properties.currency) ?? currencyCode(rule.currency) };
  }
  return {};
}
