import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { openApiPath } from '../../api/http/openapi';

/** What an answer is checked on: the route it came from, its status, its Content-Type and its body as sent. */
export interface SentAnswer {
  method: string;
  /** The route as Fastify writes it (`/admin/workspaces/:workspaceId`). */
  route: string;
  status: number;
  contentType: string | undefined;
  /** The serialized body; `undefined` or `null` for none; a stream is checked by its status and type only. */
  payload: unknown;
}

interface MediaType {
  schema?: unknown;
}
interface Operation {
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const DOCUMENT_ID = 'https://signalbox.invalid/openapi.json';
/**
 * Keywords Ajv is to take as annotations, which validate nothing: those of OpenAPI 3.1's base vocabulary, and the
 * document's own fields, since Ajv reads the document as the resource its answer schemas (and their $refs) are in.
 */
const OPENAPI_ANNOTATIONS = ['example', 'discriminator', 'xml', 'externalDocs', 'openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'webhooks', 'jsonSchemaDialect'];

/** A JSON Pointer in a URI fragment (RFC 6901 §6): `~` and `/` escaped within a segment, then percent-encoded. */
const pointer = (...segments: string[]) => `#/${segments.map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** The declared media type an answer's type falls under, the most specific first (`text/html`, `text/*`, then any type). */
function matchingMediaType(declared: readonly string[], actual: string): string | undefined {
  const [type] = actual.split('/');
  return [actual, `${type}/*`, '*/*'].find((candidate) => declared.includes(candidate));
}

function isEmpty(payload: unknown): boolean {
  return payload === undefined || payload === null || payload === '' || (Buffer.isBuffer(payload) && payload.length === 0);
}

function bodyText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

/**
 * Checks answers against an OpenAPI 3.1 document: the route must declare the status, the Content-Type must be one the
 * status declares, and a JSON body must match the schema the document gives it. Schemas are validated by Ajv's draft
 * 2020-12 validator (OpenAPI 3.1's schema dialect) with its formats, each compiled on first use and referring to the
 * document's own components. Returns every problem, in words; none when the answer is as declared.
 */
export function createAnswerCheck(document: object): (answer: SentAnswer) => string[] {
  const { paths } = document as OpenApiDocument;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_ANNOTATIONS);
  ajv.addSchema(document, DOCUMENT_ID);
  // Compiled on first use, then kept by Ajv under its reference.
  const validator = (...segments: string[]) => ajv.getSchema(`${DOCUMENT_ID}${pointer(...segments)}`) as ValidateFunction;

  return ({ method, route, status, contentType, payload }) => {
    const path = openApiPath(route);
    const operation = paths[path]?.[method.toLowerCase()];
    if (operation === undefined) return [`came from ${method} ${path}, which the document does not list`];
    const responses = operation.responses ?? {};
    const response = responses[String(status)];
    if (response === undefined) return [`answered ${status}, which ${method} ${path} does not declare (it declares ${Object.keys(responses).join(', ')})`];
    const declaredTypes = Object.keys(response.content ?? {});
    if (declaredTypes.length === 0) return isEmpty(payload) ? [] : [`answered ${status} with a body (${contentType ?? 'no Content-Type'}), which ${method} ${path} declares without one`];
    if (isEmpty(payload)) return [`answered ${status} with no body, which ${method} ${path} declares as ${declaredTypes.join(' or ')}`];
    const actual = mediaTypeOf(contentType);
    if (actual === undefined) return [`answered ${status} without a Content-Type`];
    const mediaType = matchingMediaType(declaredTypes, actual);
    if (mediaType === undefined) return [`answered ${status} as ${actual}, which ${method} ${path} declares as ${declaredTypes.join(' or ')}`];
    if (response.content?.[mediaType]?.schema === undefined || !isJson(mediaType)) return [];
    const text = bodyText(payload);
    if (text === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [`answered ${status} as ${actual} with a body that is not JSON`];
    }
    const validate = validator('paths', path, method.toLowerCase(), 'responses', String(status), 'content', mediaType, 'schema');
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `answered ${status} with a body whose ${error.instancePath || 'root'} ${error.message ?? 'does not match'} (${error.schemaPath})`);
  };
}

// On the global object, so that a test that resets its modules still records where the setup reads.
const mismatches: string[] = ((globalThis as { [key: symbol]: string[] })[Symbol.for('signalbox.contractMismatches')] ??= []);
/** One check per document, made on first use: Ajv compiles each schema once however many apps a file builds. */
const checks = new WeakMap<object, (answer: SentAnswer) => string[]>();

/**
 * Checks every answer of the app against the OpenAPI document it serves, recording what does not match; the
 * integration tier's setup (test/setup/contract-answers.ts) fails the test during which one was recorded.
 */
export function checkAnswersAgainstContract(app: FastifyInstance, document: () => object): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    // Fastify answers HEAD as GET without a body; a path that is no route gets the not-found handler's 404.
    if (route === undefined || request.method === 'HEAD') return payload;
    const served = document();
    let check = checks.get(served);
    if (check === undefined) {
      check = createAnswerCheck(served);
      checks.set(served, check);
    }
    const contentType = reply.getHeader('content-type');
    const problems = check({ method: request.method, route, status: reply.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, payload });
    mismatches.push(...problems.map((problem) => `${request.method} ${request.url.split('?')[0]}: ${problem}`));
    return payload;
  });
}

/** The mismatches recorded since the last call, which it forgets. */
export function takeContractMismatches(): string[] {
  return mismatches.splice(0);
}
