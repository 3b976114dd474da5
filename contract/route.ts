import type { z } from 'zod';
import type { TagName } from './tags';

/** The ways a caller proves who it is; `contract/security.ts` describes each for the OpenAPI document. */
export type SecuritySchemeName = 'writeKeyBasic' | 'writeKeyBearer' | 'writeKeyQuery' | 'adminToken' | 'consoleSession' | 'csrfToken';

/** Any one of the listed sets is enough; each set needs all of its schemes. Empty: public. */
export type Security = readonly (readonly SecuritySchemeName[])[];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One status of a route's answer. */
export interface Answer {
  description: string;
  /** The JSON body; absent for an empty body or one that is not JSON (see `contentType`). */
  schema?: z.ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
  example?: unknown;
  /** Other media types this status may come as, without a schema: a page for a browser, a plain-text note, any type for files. */
  alsoAs?: readonly string[];
}

/**
 * One route of the HTTP API: what it takes and what it answers. The route's handler parses its parameters, query and
 * body with these same schemas, and the OpenAPI document (api/http/openapi.ts) is generated from them.
 */
export interface RouteContract {
  method: HttpMethod;
  /** As Fastify writes it: `/admin/workspaces/:workspaceId`, `*` for the rest of a path. */
  path: string;
  summary: string;
  description?: string;
  /** The group the reference lists it under. */
  tag: TagName;
  security: Security;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Default `application/json` when there is a body. */
  bodyContentType?: string;
  bodyExample?: unknown;
  /**
   * The statuses this route gives for its own reasons. Those every route of its kind can give (a bad request, missing
   * credentials, storage unavailable, ...) are added by `answersOf` (contract/answers.ts) from the other fields.
   */
  answers: Readonly<Record<number, Answer>>;
  /** False for a route that answers without PostgreSQL (files, redirects, this document): it has no 503 of storage. */
  storage?: false;
}

/** Declares a route, keeping its schemas' own types for the handler that parses with them. */
export function route<const R extends RouteContract>(contract: R): R {
  return contract;
}
