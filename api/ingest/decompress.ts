import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyRequest, RequestPayload } from 'fastify';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../http/http-error';

const inflaters = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate } as const;

/** Passes bytes through until more than `limit` have gone by, then fails with 413 so inflating stops at once. */
class ByteCap extends Transform {
  receivedEncodedLength = 0;
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(payloadTooLarge(`request body exceeds the limit of ${this.limit} bytes once decompressed`));
    else callback(null, chunk);
  }
}

/**
 * A `preParsing` hook that inflates gzip/deflate bodies as a stream. The cap applies to the inflated bytes, so a
 * small compressed body that expands without bound (a zip bomb) is cut off at `limit`. `receivedEncodedLength` lets
 * Fastify check Content-Length against the bytes actually received.
 */
export function decompressBody(limit: number) {
  return async function (request: FastifyRequest, _reply: unknown, payload: RequestPayload): Promise<RequestPayload> {
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding === 'identity') return payload;
    if (!(encoding in inflaters)) throw unsupportedMediaType(`Content-Encoding ${encoding} is not supported: send gzip, deflate or an uncompressed body`);

    const inflater = inflaters[encoding as keyof typeof inflaters]();
    const capped = new ByteCap(limit);
    payload.on('data', (chunk: Buffer) => {
      capped.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (error) => capped.destroy(error));
    inflater.on('error', (error) => capped.destroy(badRequest(`body is not valid ${encoding} data: ${error.message}`)));
    // The request stream is left alone (never destroyed) so that the error response can still be written.
    capped.once('close', () => {
      payload.unpipe(inflater);
      inflater.destroy();
    });
    payload.pipe(inflater).pipe(capped);
    return capped;
  };
}
