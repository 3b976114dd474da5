import type { SendResult, Transport } from './queue';

/** 408 and 429 are worth another try; any other 4xx is the same answer every time. */
function outcome(status: number): SendResult {
  if (status >= 200 && status < 300) return 'delivered';
  return status >= 500 || status === 408 || status === 429 ? 'retry' : 'rejected';
}

/**
 * POSTs to the ingest API with the write key in the body. A string body is sent as `text/plain`, a "simple" CORS
 * request: no preflight, and `sendBeacon` accepts it. `keepalive` lets a request finish after the page is gone.
 * `withCookies` (the same-site mode) lets the answer set first-party cookies; otherwise no cookie travels.
 */
export function browserTransport(
  url: string,
  fetchImpl: typeof fetch,
  sendBeacon: ((url: string, body: string) => boolean) | undefined,
  withCookies = false,
): Transport {
  return {
    async send(body) {
      try {
        const response = await fetchImpl(url, { method: 'POST', body, keepalive: true, credentials: withCookies ? 'include' : 'omit' });
        return outcome(response.status);
      } catch {
        return 'retry';
      }
    },
    beacon(body) {
      try {
        return sendBeacon !== undefined && sendBeacon(url, body);
      } catch {
        return false;
      }
    },
  };
}
