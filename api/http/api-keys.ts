import { z } from 'zod';
import type { CreatedApiKey } from '../../db/repositories/api-keys';
import type { Workspace } from '../../db/repositories/workspaces';
import { jsonBody, requiredText } from './fields';

/* What the settings API and the console share about API keys (the creation body, the key parameter), and the settings API's notice. */

export const createKeyBody = jsonBody({
  name: requiredText(100),
  kind: z.enum(['secret', 'browser', 'app'], { error: 'must be secret (servers, dk_), browser (web pages, pk_) or app (mobile apps, ak_)' }).default('secret'),
});
export const keyParams = z.object({ keyId: z.string().min(1).max(100, 'must be at most 100 characters') });

const SHOWN_ONCE = 'Store this key now: it is shown only once and cannot be recovered.';

export function creationNotice(key: CreatedApiKey, workspace: Workspace): string {
  if (key.kind === 'secret') return SHOWN_ONCE;
  const origins =
    workspace.allowedOrigins.length === 0
      ? 'This workspace has no allowedOrigins yet, so every page is refused until you set them in the workspace settings.'
      : `Pages on ${workspace.allowedOrigins.join(', ')} may use it.`;
  return `${SHOWN_ONCE} Browser keys are public: they go into your pages' script tag and can only send events, only from the workspace's allowedOrigins. ${origins}`;
}
