import { ApiError } from './errors';

/** API field → the flag or argument a person typed for it, e.g. `attributionWindowDays` → `--window`. */
export type FlagNames = Readonly<Record<string, string>>;

/** Path parameters every workspace command takes. */
const ARGUMENTS: FlagNames = { workspaceId: '<workspaceId>', conversionId: '<conversionId>' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `allowedOrigins[1] must be…` → `--allowed-origins (item 2) must be…`. The field an issue starts with is replaced
 * whatever its name; further on only names that cannot be plain English (`testMode`, `value.currency`) are.
 */
function phrase(text: string, names: FlagNames): string {
  const fields = Object.keys(names).sort((a, b) => b.length - a.length);
  let head = '';
  let rest = text;
  const leading = fields.find((name) => text.startsWith(name) && /^( |\[\d+\]|$)/.test(text.slice(name.length)));
  if (leading !== undefined) {
    rest = text.slice(leading.length);
    const index = /^\[(\d+)\]/.exec(rest);
    head = index === null ? (names[leading] as string) : `${names[leading]} (item ${Number(index[1]) + 1})`;
    if (index !== null) rest = rest.slice(index[0].length);
  }
  for (const name of fields.filter((field) => /[A-Z.]/.test(field))) {
    rest = rest.replace(new RegExp(`(?<![\\w.<-])${escapeRegExp(name)}(?![\\w.>])`, 'g'), names[name] as string);
  }
  return `${head}${rest}`;
}

/** The server's error with each field it names replaced by the command's flag, so the message speaks the CLI's language. */
export function inFlagTerms(error: ApiError, names: FlagNames): ApiError {
  const all = { ...ARGUMENTS, ...names };
  const issues = error.issues.map((issue) => phrase(issue, all));
  const message = issues.length > 0 ? issues.join('; ') : phrase(error.message, all);
  return new ApiError(error.status, error.code, message, issues);
}
