/**
 * Paths into a webhook's JSON body, as a mapping names them: keys separated by dots, array positions in brackets
 * (`data.object.customer_details.email`, `line_items[0].price`). No expressions, no wildcards: a mapping only reads.
 */
export type PathStep = string | number;

const STEP = /\[(\d{1,6})\]|([^.[\]]+)/y;

/** The steps of a path, or a sentence saying what is wrong with it. */
export function parsePath(path: string): { steps: PathStep[] } | { problem: string } {
  const text = path.trim();
  if (text === '') return { problem: 'must not be empty' };
  if (text.length > 200) return { problem: 'must be at most 200 characters' };
  const steps: PathStep[] = [];
  let at = 0;
  while (at < text.length) {
    if (steps.length > 0 && text[at] === '.') at += 1;
    STEP.lastIndex = at;
    const match = STEP.exec(text);
    if (match === null) return { problem: `is not a path like data.object.email or items[0].price (stopped at character ${at + 1})` };
    steps.push(match[1] !== undefined ? Number(match[1]) : (match[2] as string));
    at = STEP.lastIndex;
  }
  return { steps };
}

/** The value at `steps`, or undefined when the body has nothing there. */
export function readPath(body: unknown, steps: readonly PathStep[]): unknown {
  let value: unknown = body;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(value)) return undefined;
      value = value[step];
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, step)) return undefined;
      value = (value as Record<string, unknown>)[step];
    }
  }
  return value;
}
