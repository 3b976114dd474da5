import type { z } from 'zod';
import { badRequest } from './http-error';
import { describeIssues } from './issues';

/** Parses `value` or throws a 400 whose message and issues name each bad field, e.g. `attributionWindowDays must be ...`. */
export function parseOrReject<S extends z.ZodType>(schema: S, value: unknown, root: 'body' | 'query' | 'path'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = describeIssues(result.error.issues, '', root);
  throw badRequest(issues.join('; '), issues);
}
