import { z } from 'zod';

const shapes = new WeakMap<z.core.$ZodType, z.ZodType>();

/**
 * A value the route lets through zod unchecked because other code checks it with finer words (a Segment message: the
 * message rules of sdk/src/rules); the OpenAPI document shows `shown` for it.
 */
export function checkedElsewhere(shown: z.ZodType): z.ZodUnknown {
  const passThrough = z.unknown();
  shapes.set(passThrough, shown);
  return passThrough;
}

/** What the document shows for a schema made by `checkedElsewhere`. */
export function shownShape(schema: z.core.$ZodType): z.ZodType | undefined {
  return shapes.get(schema);
}
