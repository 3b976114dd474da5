import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostOf, internalAddressText, internalKind, type InternalAddresses } from './webhook-target';

/** The wait for a webhook's answer ends: an evaluation never hangs on a slow receiver. */
const TIMEOUT_MS = 10_000;

const refusedAddress = (host: string, address: string, kind: string) => new Error(`the webhook's host ${internalAddressText(host, address, kind)}, which this server does not call`);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The system's lookup, failing when the host has an internal address: checked where the connection is made, so a DNS answer cannot change between the check and the call. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    for (const entry of addresses) {
      const kind = internalKind(entry.address);
      if (kind !== undefined) return callback(refusedAddress(hostname, entry.address, kind), []);
    }
    if (options.all === true) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

/** Posts `{"text": …}`, the body Slack's incoming webhooks (and Mattermost's, Discord's `/slack`) take; non-2xx throws. Redirects are not followed. */
export function createWebhookPoster({ internalAddresses, timeoutMs = TIMEOUT_MS }: { internalAddresses: InternalAddresses; timeoutMs?: number }) {
  return function postWebhook(url: string, text: string): Promise<void> {
    const target = new URL(url);
    const host = hostOf(target);
    const options: RequestOptions = { method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(timeoutMs) };
    if (internalAddresses === 'refuse') {
      // A literal address is connected to without a lookup.
      const kind = isIP(host) === 0 ? undefined : internalKind(host);
      if (kind !== undefined) return Promise.reject(refusedAddress(host, host, kind));
      options.lookup = publicOnlyLookup as RequestOptions['lookup'];
    }
    return new Promise((resolve, reject) => {
      const sent = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) reject(new Error(`the webhook answered HTTP ${status}`));
        else resolve();
      });
      sent.on('error', reject);
      sent.end(JSON.stringify({ text }));
    });
  };
}

export type WebhookPoster = ReturnType<typeof createWebhookPoster>;
