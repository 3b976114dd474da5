import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostOf, internalAddressText, internalKind, systemLookup, type HostLookup, type InternalAddresses } from './webhook-target';

/** The wait for a webhook's answer ends: an evaluation never hangs on a slow receiver. */
const TIMEOUT_MS = 10_000;

const refusedAddress = (host: string, address: string, kind: string) => new Error(`the webhook's host ${internalAddressText(host, address, kind)}, which this server does not call`);

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The connection's lookup through `resolve`, failing when the host has an internal address: checked where the
 * connection is made, so a DNS answer cannot change between the check and the call.
 */
export function publicOnlyLookup(resolve: HostLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answers) => {
        const addresses = answers.map(({ address }) => ({ address, family: isIP(address) }));
        for (const { address } of addresses) {
          const kind = internalKind(address);
          if (kind !== undefined) return callback(refusedAddress(hostname, address, kind), []);
        }
        const [first] = addresses;
        if (first === undefined) return callback(new Error(`the webhook's host ${hostname} has no address`), []);
        if (options.all === true) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * Posts `{"text": …}`, the body Slack's incoming webhooks (and Mattermost's, Discord's `/slack`) take; non-2xx throws.
 * Redirects are not followed. `lookup` (default: the system's resolver) is where names are resolved.
 */
export function createWebhookPoster({ internalAddresses, timeoutMs = TIMEOUT_MS, lookup = systemLookup }: { internalAddresses: InternalAddresses; timeoutMs?: number; lookup?: HostLookup }) {
  return function postWebhook(url: string, text: string): Promise<void> {
    const target = new URL(url);
    const host = hostOf(target);
    const options: RequestOptions = { method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(timeoutMs) };
    if (internalAddresses === 'refuse') {
      // A literal address is connected to without a lookup.
      const kind = isIP(host) === 0 ? undefined : internalKind(host);
      if (kind !== undefined) return Promise.reject(refusedAddress(host, host, kind));
      options.lookup = publicOnlyLookup(lookup) as RequestOptions['lookup'];
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
