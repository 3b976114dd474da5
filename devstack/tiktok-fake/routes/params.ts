import { parameterError, type LogicalAnswer } from '../envelope';

/** A parsed parameter, or the 40002 answer naming what was wrong with it. */
export type Param<T> = { ok: true; value: T } | { ok: false; answer: LogicalAnswer };

const ok = <T>(value: T): Param<T> => ({ ok: true, value });
const bad = <T>(message: string): Param<T> => ({ ok: false, answer: parameterError(message) });

export type Query = Readonly<Record<string, string | undefined>>;

export function requiredText(query: Query, name: string): Param<string> {
  const value = query[name];
  if (value === undefined || value.trim() === '') return bad(`Missing required field: ${name}.`);
  return ok(value);
}

export function requiredDigits(query: Query, name: string): Param<string> {
  const value = requiredText(query, name);
  if (!value.ok) return value;
  return /^\d+$/.test(value.value) ? value : bad(`Invalid value for ${name}: must be a string of digits.`);
}

function integer(query: Query, name: string, fallback: number, min: number, max: number): Param<number> {
  const raw = query[name];
  if (raw === undefined) return ok(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    return bad(`Invalid value for ${name}: must be an integer from ${min} to ${max}.`);
  }
  return ok(value);
}

/** `page` ≥ 1 (default 1) and `page_size` 1..max (default 10), as every paged TikTok endpoint (§7.1, §7.4, §8). */
export function paging(query: Query, maxPageSize: number): Param<{ page: number; pageSize: number }> {
  const page = integer(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  if (!page.ok) return page;
  const pageSize = integer(query, 'page_size', 10, 1, maxPageSize);
  if (!pageSize.ok) return pageSize;
  return ok({ page: page.value, pageSize: pageSize.value });
}

/** Arrays travel as JSON strings in the query (§0). */
export function jsonStringArray(query: Query, name: string, required: boolean): Param<string[] | undefined> {
  const raw = query[name];
  if (raw === undefined) return required ? bad(`Missing required field: ${name}.`) : ok(undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return bad(`Invalid value for ${name}: must be a JSON array of strings.`);
  }
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) {
    return bad(`Invalid value for ${name}: must be a JSON array of strings.`);
  }
  return ok(parsed as string[]);
}

export function jsonValue(query: Query, name: string): Param<unknown> {
  const raw = query[name];
  if (raw === undefined) return ok(undefined);
  try {
    return ok(JSON.parse(raw));
  } catch {
    return bad(`Invalid value for ${name}: must be JSON.`);
  }
}

export function pageInfo(page: number, pageSize: number, totalNumber: number) {
  return { page, page_size: pageSize, total_number: totalNumber, total_page: Math.ceil(totalNumber / pageSize) };
}
