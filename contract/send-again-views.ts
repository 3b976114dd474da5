import { z } from 'zod';

/* The console's "Send again", of one conversion and by the Conversions page's filter. Imports nothing but zod, for the console's build. */

const count = z.number().int().nonnegative();

/** `POST …/conversions/:conversionId/retry`: whether the conversion went back to the pipeline. */
export const consoleRetryView = z.strictObject({ requeued: z.boolean() });
export type ConsoleRetryView = z.infer<typeof consoleRetryView>;

/** `GET …/conversions/send-again`: how many the filter would send, for the confirmation to name. */
export const sendAgainCountView = z.strictObject({
  count,
  leftOut: count.meta({ description: 'Matching conversions left out: sending them again could only skip them again' }),
  limit: count.meta({ description: 'The most one send takes' }),
});
export type SendAgainCountView = z.infer<typeof sendAgainCountView>;

/** `POST …/conversions/send-again`: how many went back to the pipeline. */
export const sentAgainView = z.strictObject({ requeued: count });
export type SentAgainView = z.infer<typeof sentAgainView>;
