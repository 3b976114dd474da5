import { z } from 'zod';
import { answersOf } from '../../contract/answers';
import type { Answer, RouteContract, Security, SecuritySchemeName } from '../../contract/route';
import { SECURITY_SCHEMES } from '../../contract/security';
import { TAGS, type TagName } from '../../contract/tags';
import { shownShape } from '../../contract/shown-as';

type JsonSchema = Record<string, unknown>;

/** Shared schemas (zod's `id` meta) gathered into `components.schemas`; each route's schemas refer to them. */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      // Refinements (a currency code's list, a webhook mapping's paths) are checked by the route, not shown here.
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema }) => {
        const shown = shownShape(zodSchema);
        if (shown !== undefined) Object.assign(jsonSchema, this.convert(shown, io));
      },
    }) as JsonSchema;
    return this.lift(json) as JsonSchema;
  }

  /** Moves `$defs` into the components and points their `$ref`s there; drops `$schema` (the document says the dialect). */
  private lift(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.lift(item));
    if (typeof value !== 'object' || value === null) return value;
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$schema') continue;
      if (key === '$defs') {
        for (const [name, definition] of Object.entries(inner as Record<string, unknown>)) this.components[name] = this.lift(definition) as JsonSchema;
        continue;
      }
      result[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : this.lift(inner);
    }
    return result;
  }
}

/** Fastify's `:name` and `*` as OpenAPI path templates. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

function parameters(route: RouteContract, converter: SchemaConverter): JsonSchema[] {
  const listed: JsonSchema[] = [];
  for (const [where, schema] of [['path', route.params], ['query', route.query]] as const) {
    if (schema === undefined) continue;
    const object = converter.convert(schema, 'input');
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      const { description, ...propertySchema } = property;
      listed.push({ name, in: where, required: where === 'path' || required.has(name), ...(description === undefined ? {} : { description }), schema: propertySchema });
    }
  }
  const pathNames = new Set(listed.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name));
  for (const match of openApiPath(route.path).matchAll(/\{([^}]+)\}/g)) {
    const name = match[1] as string;
    if (!pathNames.has(name)) listed.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  return listed;
}

function content(answer: Answer, converter: SchemaConverter): JsonSchema | undefined {
  const others = Object.fromEntries((answer.alsoAs ?? []).map((type) => [type, {}]));
  if (answer.schema === undefined && answer.contentType === undefined) return answer.alsoAs === undefined ? undefined : others;
  const media = { schema: answer.schema === undefined ? {} : converter.convert(answer.schema, 'output'), ...(answer.example === undefined ? {} : { example: answer.example }) };
  return { [answer.contentType ?? 'application/json']: media, ...others };
}

function responses(answers: Readonly<Record<number, Answer>>, converter: SchemaConverter): JsonSchema {
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => {
      const media = content(answer, converter);
      return [status, { description: answer.description, ...(media === undefined ? {} : { content: media }) }];
    }),
  );
}

const security = (requirements: Security) => requirements.map((set) => Object.fromEntries(set.map((scheme) => [scheme, []])));

function operation(route: RouteContract, converter: SchemaConverter): JsonSchema {
  const listed = parameters(route, converter);
  const body =
    route.body === undefined
      ? undefined
      : {
          required: true,
          content: { [route.bodyContentType ?? 'application/json']: { schema: converter.convert(route.body, 'input'), ...(route.bodyExample === undefined ? {} : { example: route.bodyExample }) } },
        };
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path).replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: [route.tag],
    security: security(route.security),
    ...(listed.length === 0 ? {} : { parameters: listed }),
    ...(body === undefined ? {} : { requestBody: body }),
    responses: responses(answersOf(route), converter),
  };
}

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

/** The OpenAPI 3.1 document of the given routes, generated from their zod schemas. */
export function buildOpenApiDocument(routes: readonly RouteContract[], info: OpenApiInfo): JsonSchema {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = operation(route, converter);
  }
  const used = new Set(routes.map((route) => route.tag));
  const tags = Object.entries(TAGS).filter(([name]) => used.has(name as TagName)).map(([name, description]) => ({ name, description }));
  const sortedComponents = Object.fromEntries(Object.entries(converter.components).sort(([a], [b]) => a.localeCompare(b)));
  const schemes = new Set(routes.flatMap((route) => route.security.flat()));
  const securitySchemes = Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => schemes.has(name as SecuritySchemeName)));
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'This Signalbox (its PUBLIC_URL)' }],
    tags,
    paths,
    components: { schemas: sortedComponents, securitySchemes },
  };
}
