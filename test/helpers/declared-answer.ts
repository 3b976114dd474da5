import type { z } from 'zod';
import { ALL_ROUTES } from '../../contract';
import { answersOf } from '../../contract/answers';
import type { RouteContract } from '../../contract/route';

/** The schema a route declares for an answer's status; throws when there is none, so a test parsing with it fails. */
export function declared(method: RouteContract['method'], path: string, status: number): z.ZodType {
  const contract = ALL_ROUTES.find((candidate) => candidate.method === method && candidate.path === path);
  const schema = contract === undefined ? undefined : answersOf(contract)[status]?.schema;
  if (schema === undefined) throw new Error(`${method} ${path} declares no schema for ${status}`);
  return schema;
}
