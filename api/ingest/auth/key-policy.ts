import type { ApiKey } from '../../../db/repositories/api-keys';
import type { Workspace } from '../../../db/repositories/workspaces';
import { IngestRefusal } from '../../http/ingest-refusal';

/** Where the request carried its key: the `Authorization` header, `?writeKey=` or `writeKey` in the JSON body. */
export type KeySource = 'authorization' | 'query' | 'body';

export interface KeyUse {
  /** The `Origin` header; browsers send it on every POST, server-side HTTP clients do not. */
  origin: string | undefined;
  source: KeySource;
}

/**
 * Who may use which key from where. A browser key (`pk_`) is public, so it is accepted only from a web page on one
 * of the workspace's allowed origins. An app key (`ak_`) is public too, shipped inside mobile apps, which send no
 * `Origin`: a request from a web page is refused. A secret key (`dk_`) must never reach a browser: a request that
 * carries an `Origin` is refused, and so is a secret key in the URL, where access logs keep it. Throws 403 naming the
 * problem; returns the origin allowed to read the answer (a browser key's page), if any.
 */
export function checkKeyUse(apiKey: ApiKey, workspace: Workspace, { origin, source }: KeyUse): string | undefined {
  if (apiKey.kind === 'browser') {
    if (origin === undefined) {
      throw new IngestRefusal('browser_key_without_origin', 'browser API keys (pk_) are accepted only from web pages, and this request has no Origin header: servers send a secret key (dk_), mobile apps an app key (ak_)');
    }
    if (!workspace.allowedOrigins.includes(origin)) {
      throw new IngestRefusal('origin_not_allowed', `Origin ${origin} is not one of this workspace's allowedOrigins: add it in the workspace settings (signalbox settings set ${workspace.id} --allowed-origins ${origin})`);
    }
    return origin;
  }
  if (apiKey.kind === 'app') {
    if (origin !== undefined) throw new IngestRefusal('app_key_from_page', `app API keys (ak_) are for mobile apps, and this request comes from the web page ${origin}: use a browser key (pk_)`);
    return undefined;
  }
  if (origin !== undefined) {
    throw new IngestRefusal(
      'secret_key_from_page',
      `secret API keys (dk_) must not be used from a browser, and this request carries Origin ${origin}: use a browser key (pk_) in web pages, and revoke this key if it was published`,
    );
  }
  if (source === 'query') {
    throw new IngestRefusal('secret_key_in_url', 'secret API keys (dk_) must not be sent in the URL, where logs keep them: send Authorization: Bearer <key>');
  }
  return undefined;
}
