import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findJsonSyntaxError } from '../../domain/json-syntax';
import { badRequest } from './http-error';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Fastify's JSON parser (prototype poisoning refused), whose "body is not valid JSON" also says what is wrong and
 * where; the text is scanned again only when it failed to parse.
 */
export function jsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request: FastifyRequest, body: string | Buffer, done: Done) => {
    void parse(request, body.toString(), (error: (Error & { code?: string }) | null, value?: unknown) => {
      if (error === null) return done(null, value);
      if (error.code !== 'FST_ERR_CTP_INVALID_JSON_BODY') return done(error);
      const syntax = findJsonSyntaxError(body.toString());
      if (syntax === undefined) return done(badRequest('body must not set __proto__ or constructor.prototype'));
      done(badRequest(`body is not valid JSON: ${syntax.reason} (line ${syntax.line}, column ${syntax.column})`));
    });
  };
}

/** Reads `application/json` bodies with {@link jsonBodyParser}. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(app));
}
