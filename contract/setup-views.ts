import { z } from 'zod';

/* The console's setup checklist and what a site needs to install. Imports nothing but zod, for the console's build. */

export const setupStepView = z.strictObject({
  key: z.enum(['tracking_script', 'events', 'tiktok', 'pixel', 'rule', 'first_delivery', 'match_rate']),
  title: z.string(),
  done: z.boolean(),
  explanation: z.string().meta({ description: 'One line, in words: what was seen, or what is missing' }),
  link: z.strictObject({ path: z.string().meta({ description: 'A console page of the workspace, e.g. sources#install' }), label: z.string() }).meta({ description: 'Where the step is done' }),
});
export type SetupStepView = z.infer<typeof setupStepView>;

/** `GET …/setup`: every step, done or not, from the workspace's state now. */
export const setupView = z.strictObject({
  steps: z.array(setupStepView),
  done: z.number().int(),
  complete: z.boolean(),
  matchRate: z.strictObject({
    keys: z.array(z.string()).meta({ description: 'A delivered conversion that carried one of them counts as matched' }),
    target: z.number(),
    days: z.number().int(),
    delivered: z.number().int(),
    matched: z.number().int(),
  }),
});
export type SetupView = z.infer<typeof setupView>;

/** `GET …/install`: where a site sends events and loads the tag, and what every ad's landing page URL needs. */
export const installView = z.strictObject({ ingestUrl: z.string(), scriptUrl: z.string(), adUrlParameters: z.string() });
export type InstallView = z.infer<typeof installView>;
