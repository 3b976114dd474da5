import type { CreatedApiKey } from '../../db/repositories/api-keys';
import type { Workspace } from '../../db/repositories/workspaces';

/* The settings API's notice for a new API key (the creation body and the key parameter: contract/api-keys.ts). */

const SHOWN_ONCE = 'Store this key now: it is shown only once and cannot be recovered.';

export function creationNotice(key: CreatedApiKey, workspace: Workspace): string {
  if (key.kind === 'secret') return SHOWN_ONCE;
  const origins =
    workspace.allowedOrigins.length === 0
      ? 'This workspace has no allowedOrigins yet, so every page is refused until you set them in the workspace settings.'
      : `Pages on ${workspace.allowedOrigins.join(', ')} may use it.`;
  return `${SHOWN_ONCE} Browser keys are public: they go into your pages' script tag and can only send events, only from the workspace's allowedOrigins. ${origins}`;
}
