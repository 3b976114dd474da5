/** Figures as people read them in a table: exact decimals in (strings), rounded only for display, `-` when empty. */

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

// Intl.NumberFormat takes decimal strings as exact values, so '1.005' rounds to 1.01 (a float would give 1.00).
type DecimalText = `${number}`;

/** Money (spend, CPC, value): two decimals. */
export function money(value: string | null): string {
  return value === null ? '-' : twoDecimals.format(value as DecimalText);
}

/** CTR, already a percentage: two decimals and `%`. */
export function percent(value: string | null): string {
  return value === null ? '-' : `${twoDecimals.format(value as DecimalText)}%`;
}

/** ROAS, a ratio of value to spend: two decimals. */
export function ratio(value: string | null): string {
  return value === null ? '-' : twoDecimals.format(value as DecimalText);
}

/** Impressions, clicks, conversions. */
export function count(value: number | null): string {
  return value === null ? '-' : whole.format(value);
}
