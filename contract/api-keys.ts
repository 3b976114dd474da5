import { z } from 'zod';
import { jsonBody, requiredText } from './fields';

/* What the settings API and the console share about API keys: the creation body and the key parameter. */

export const createKeyBody = jsonBody({
  name: requiredText(100),
  kind: z.enum(['secret', 'browser', 'app'], { error: 'must be secret (servers, dk_), browser (web pages, pk_) or app (mobile apps, ak_)' }).default('secret'),
});
export type CreateKeyBody = z.input<typeof createKeyBody>;
export const keyParams = z.object({ keyId: z.string().min(1).max(100, 'must be at most 100 characters') });
