/** A step in a field path: an object key or an array index. */
export type PathPart = string | number;

/** One problem with one field of a message, e.g. `{ path: ['timestamp'], message: 'must be an ISO-8601 …' }`. */
export interface Issue {
  path: readonly PathPart[];
  message: string;
  /** Set when the problem is the message's size (the ingest API answers 413 rather than 400). */
  tooLarge?: true;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * `batch[3].properties.items[0].name`: the path after `prefix`. Keys that are not plain names are quoted
 * (`properties["order id"]`), so odd characters in a key never garble the message. An empty path gives `root`.
 */
export function formatPath(path: readonly PathPart[], prefix = '', root = prefix): string {
  let text = prefix;
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (!PLAIN_KEY.test(part)) text += `[${JSON.stringify(part)}]`;
    else text += text === '' ? part : `.${part}`;
  }
  return text === '' ? root : text;
}

/** `batch[3].timestamp must be an ISO-8601 timestamp …`, the way the ingest API reports an issue. */
export function formatIssue(issue: Issue, prefix = '', root = prefix): string {
  return `${formatPath(issue.path, prefix, root)} ${issue.message}`;
}
