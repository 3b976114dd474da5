import { z } from 'zod';
import { instant } from './views';

/* The console's change log. Imports nothing but zod and views.ts, for the console's build. */

/** `GET …/change-log`: who changed what, newest first, each entry in a sentence and field by field. */
export const changeLogPageView = z.strictObject({
  entries: z.array(
    z.strictObject({
      id: z.string(),
      at: instant,
      actor: z.string().meta({ description: 'operator (the settings API), user:<id>, or system' }),
      actorName: z.string(),
      action: z.string().meta({ description: 'e.g. settings.update, tiktok.connect' }),
      target: z.string().nullable(),
      summary: z.string(),
      changes: z.array(z.strictObject({ field: z.string(), before: z.string(), after: z.string() })),
    }),
  ),
  nextBeforeId: z.string().nullable().meta({ description: 'Ask with beforeId for the next page; null on the last one' }),
});
export type ChangeLogPageView = z.infer<typeof changeLogPageView>;
