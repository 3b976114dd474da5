import { z } from 'zod';
import { route } from '../../contract/route';
import { checkedElsewhere } from '../../contract/shown-as';
import { buildOpenApiDocument, openApiPath } from './openapi';

const INFO = { title: 'Test', version: '1', description: 'A test document' };
const shared = z.strictObject({ id: z.string() }).meta({ id: 'TestThing' });

const testRoute = route({
  method: 'PUT',
  path: '/things/:thingId',
  summary: 'Replace a thing',
  tag: 'Ingest',
  security: [['adminToken']],
  params: z.object({ thingId: z.string().max(10).meta({ description: 'The thing' }) }),
  query: z.object({ dryRun: z.enum(['true', 'false']).optional(), limit: z.coerce.number() }),
  body: z.strictObject({ kind: z.enum(['a', 'b']).default('a'), payload: checkedElsewhere(z.object({ shownOnly: z.boolean() })) }),
  answers: { 200: { description: 'Replaced', schema: z.strictObject({ thing: shared, others: z.array(shared) }) } },
});

type Document = { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: Record<string, unknown> } };

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument([testRoute], INFO) as Document;
  const operation = document.paths['/things/{thingId}']?.put as Record<string, unknown>;

  it('writes Fastify paths as OpenAPI templates', () => {
    expect(openApiPath('/admin/workspaces/:workspaceId/keys/:keyId')).toBe('/admin/workspaces/{workspaceId}/keys/{keyId}');
    expect(openApiPath('/v1/*')).toBe('/v1/{path}');
  });

  it('lists path and query parameters from their schemas, required as the schema says', () => {
    expect(operation.parameters).toEqual([
      { name: 'thingId', in: 'path', required: true, description: 'The thing', schema: { type: 'string', maxLength: 10 } },
      { name: 'dryRun', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
      { name: 'limit', in: 'query', required: true, schema: { type: 'number' } },
    ]);
    expect(operation.security).toEqual([{ adminToken: [] }]);
  });

  it('shows a body as the client sends it (a defaulted field optional), and a value checked elsewhere by its shown shape', () => {
    const schema = (operation.requestBody as { content: Record<string, { schema: Record<string, unknown> }> }).content['application/json']?.schema;
    expect(schema?.required).toEqual(['payload']);
    expect((schema?.properties as Record<string, unknown>).payload).toMatchObject({ type: 'object', properties: { shownOnly: { type: 'boolean' } } });
  });

  it('lists every status a route can answer: those its inputs, credentials and storage give it, then its own', () => {
    const statuses = (built: Document, path: string, method: string) => Object.keys((built.paths[path]?.[method] as { responses: object }).responses);
    expect(statuses(document, '/things/{thingId}', 'put')).toEqual(['200', '400', '401', '413', '415', '500', '503']);
    const others = buildOpenApiDocument(
      [
        route({ method: 'GET', path: '/file', summary: 'A file', tag: 'Reference', security: [], storage: false, answers: { 200: { description: 'The file', contentType: 'text/css' } } }),
        route({ method: 'DELETE', path: '/session', summary: 'Sign out', tag: 'Console', security: [['consoleSession', 'csrfToken']], answers: { 200: { description: 'Signed out' }, 403: { description: 'Refused: why' } } }),
      ],
      INFO,
    ) as Document;
    expect(statuses(others, '/file', 'get')).toEqual(['200', '500']);
    expect(statuses(others, '/session', 'delete')).toEqual(['200', '400', '401', '403', '413', '415', '500', '503']);
    expect(others.paths['/session']?.delete).toMatchObject({ responses: { 403: { description: 'Refused: why' }, 503: { description: expect.stringMatching(/^Storage is unavailable/) } } });
  });

  it('gathers shared schemas into components and refers to them there', () => {
    expect(document.components.schemas.TestThing).toEqual({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false });
    const answer = (operation.responses as Record<string, { content: Record<string, { schema: unknown }> }>)['200']?.content['application/json']?.schema;
    expect(answer).toMatchObject({ properties: { thing: { $ref: '#/components/schemas/TestThing' }, others: { items: { $ref: '#/components/schemas/TestThing' } } } });
    expect(JSON.stringify(document)).not.toContain('$defs');
  });
});
