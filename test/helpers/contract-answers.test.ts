import { z } from 'zod';
import { buildOpenApiDocument } from '../../api/http/openapi';
import { route } from '../../contract/route';
import { createAnswerCheck } from './contract-answers';

const thing = z.strictObject({ id: z.string(), at: z.iso.datetime() }).meta({ id: 'CheckedThing' });

const document = buildOpenApiDocument(
  [
    route({
      method: 'PUT',
      path: '/things/:thingId',
      summary: 'Replace a thing',
      tag: 'Ingest',
      security: [['adminToken']],
      body: z.strictObject({ name: z.string() }),
      answers: { 200: { description: 'Replaced', schema: z.strictObject({ thing, others: z.array(thing) }) }, 204: { description: 'Nothing to replace' } },
    }),
    route({
      method: 'GET',
      path: '/files/*',
      summary: 'A file',
      tag: 'Reference',
      security: [],
      storage: false,
      answers: { 200: { description: 'A page, or any file', contentType: 'text/html', alsoAs: ['*/*'] } },
    }),
  ],
  { title: 'Test', version: '1', description: 'A test document' },
);

describe('createAnswerCheck', () => {
  const check = createAnswerCheck(document);
  const json = 'application/json; charset=utf-8';
  const put = (status: number, payload: unknown, contentType: string | undefined = json) =>
    check({ method: 'PUT', route: '/things/:thingId', status, contentType, payload: typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload) ? JSON.stringify(payload) : payload });
  const valid = { thing: { id: 't-1', at: '2026-11-23T10:00:00.000Z' }, others: [] };

  it('passes an answer as declared, its body matching the schema and the components it refers to', () => {
    expect(put(200, valid)).toEqual([]);
    expect(put(200, Buffer.from(JSON.stringify(valid)))).toEqual([]);
    expect(check({ method: 'PUT', route: '/things/:thingId', status: 204, contentType: undefined, payload: undefined })).toEqual([]);
  });

  it('passes the statuses every route of its kind can give: a bad body, no credentials, storage unavailable, a failure', () => {
    const error = { error: 'invalid_request', message: 'name is required', issues: ['name is required'] };
    for (const status of [400, 401, 413, 415, 500, 503]) expect(put(status, error)).toEqual([]);
  });

  it('names a status the route does not declare', () => {
    expect(put(409, { error: 'conflict', message: 'no' })).toEqual([expect.stringMatching(/^answered 409, which PUT \/things\/\{thingId\} does not declare \(it declares 200, 204, 400, 401, 413, 415, 500, 503\)$/)]);
  });

  it('names a Content-Type the status does not declare, and a body where none is declared', () => {
    expect(put(200, '<p>replaced</p>', 'text/html')).toEqual([expect.stringContaining('answered 200 as text/html, which PUT /things/{thingId} declares as application/json')]);
    expect(put(204, valid)).toEqual([expect.stringContaining('with a body (application/json; charset=utf-8), which PUT /things/{thingId} declares without one')]);
    expect(put(200, undefined)).toEqual([expect.stringContaining('answered 200 with no body, which PUT /things/{thingId} declares as application/json')]);
    expect(check({ method: 'PUT', route: '/things/:thingId', status: 200, contentType: undefined, payload: JSON.stringify(valid) })).toEqual(['answered 200 without a Content-Type']);
  });

  it('names each way a body differs from its schema, down to a referred component and a format', () => {
    const problems = put(200, { thing: { id: 't-1', at: 'yesterday' }, others: [{ id: 2, at: '2026-11-23T10:00:00Z' }], extra: true });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^answered 200 with a body whose root must NOT have additional properties/),
        expect.stringMatching(/^answered 200 with a body whose \/thing\/at must match format "date-time"/),
        expect.stringMatching(/^answered 200 with a body whose \/others\/0\/id must be string/),
      ]),
    );
    expect(put(200, '{"thing":')).toEqual(['answered 200 as application/json with a body that is not JSON']);
  });

  it('takes another declared media type, the most specific first, and a route missing from the document', () => {
    const file = (contentType: string) => check({ method: 'GET', route: '/files/*', status: 200, contentType, payload: Buffer.from('body { }') });
    expect(file('text/html; charset=utf-8')).toEqual([]);
    expect(file('text/css')).toEqual([]);
    expect(check({ method: 'GET', route: '/files/*', status: 503, contentType: 'application/json', payload: '{}' })).toEqual([expect.stringContaining('answered 503, which GET /files/{path} does not declare (it declares 200, 500)')]);
    expect(check({ method: 'DELETE', route: '/things/:thingId', status: 200, contentType: 'application/json', payload: '{}' })).toEqual(['came from DELETE /things/{thingId}, which the document does not list']);
  });
});
