import type { FastifyPluginAsync } from 'fastify';
import { IMPORT_MEDIA_TYPES, importQuery } from '../../contract/imports';
import type { ImportFormat } from '../../domain/imports/import-file';
import { unsupportedMediaType } from '../http/http-error';
import { MAX_BATCH_BYTES } from '../http/limits';
import { parseOrReject } from '../http/validation';
import type { ImportService } from '../services/imports';
import { workspaceOf } from './workspace-scope';

function formatOf(contentType: string | undefined): ImportFormat {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  const format = (Object.keys(IMPORT_MEDIA_TYPES) as ImportFormat[]).find((name) => IMPORT_MEDIA_TYPES[name] === mediaType);
  if (format === undefined) throw unsupportedMediaType(`Content-Type must be ${IMPORT_MEDIA_TYPES.csv} or ${IMPORT_MEDIA_TYPES.ndjson}, not ${mediaType === '' ? 'missing' : mediaType}`);
  return format;
}

/** `POST /admin/workspaces/:workspaceId/imports`: a file (or a part of one) of past offline sales or lead stages. */
export const importRoutes: FastifyPluginAsync<{ imports: ImportService }> = async (app, { imports }) => {
  // A file's text whatever its declared type, so that a wrong type is answered with the two this route takes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post('/', { bodyLimit: MAX_BATCH_BYTES }, async (request) => {
    const format = formatOf(request.headers['content-type']);
    const { kind, firstRow } = parseOrReject(importQuery, request.query, 'query');
    return imports(workspaceOf(request), { kind, format, text: typeof request.body === 'string' ? request.body : '', firstRow });
  });
};
