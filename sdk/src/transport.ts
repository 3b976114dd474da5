/** One `POST` of a gzipped batch; the transport must give up with an error once `timeoutMs` has passed. */
export interface TransportRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case, as Node's `IncomingMessage.headers` has them. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends requests to the ingest API. Resolve with any HTTP response (the client decides what a status means);
 * reject only when no response arrived: a network error or the timeout.
 */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Releases sockets; called once by `close()`. */
  close?(): void;
}

export class RequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}
