import type { z } from 'zod';

/**
 * `batch[3].event is required for track messages`: field paths after `prefix`; an issue about the whole value is
 * named `root` (default: the prefix), and each unknown field of a strict object gets its own line.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], prefix: string, root = prefix): string[] {
  const pathText = (path: readonly PropertyKey[]) => {
    const text = path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc === '' ? String(part) : `${acc}.${String(part)}`), prefix);
    return text === '' ? root : text;
  };
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => `${pathText([...issue.path, key])} is not a known field`) : [`${pathText(issue.path)} ${issue.message}`],
  );
}
