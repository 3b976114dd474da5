import type { Issue, PathPart } from './issues.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { textProblem } from './text.js';

/** Issues listed per message at most; one broken import row should not produce a wall of text. */
const MAX_ISSUES_PER_VALUE = 10;
const TOO_DEEP = `nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep (counting the message); flatten it`;

/**
 * The escapes JSON.stringify writes for text storage refuses: NUL, and a UTF-16 surrogate without its pair (a paired
 * one is written as it is). A string holding the six characters `\u0000` also matches; the exact check then clears it.
 */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** False when `json` (JSON.stringify's output) certainly holds no text that storage refuses, in strings or keys. */
export function mayHoldUnstorableText(json: string): boolean {
  // Most JSON has no `\u` escape at all, and indexOf finds that faster than any regular expression.
  return json.indexOf('\\u') !== -1 && UNSTORABLE_ESCAPE.test(json);
}

/** What JSON.stringify would write for `value`: a Date becomes its ISO string, anything with toJSON its result. */
function asJson(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(): unknown }).toJSON();
  }
  return value;
}

/**
 * Keys the ingest API's JSON parser refuses in any object, as prototype pollution: `__proto__`, and `constructor`
 * holding an object with a `prototype` (Fastify's secure-json-parse).
 */
function forbiddenKeyProblem(key: string, value: unknown): string | undefined {
  if (key === '__proto__') return 'has a key "__proto__", which is refused (it could alter object prototypes)';
  if (key === 'constructor' && typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, 'prototype')) {
    return 'has a key "constructor" holding a "prototype", which is refused (it could alter object prototypes)';
  }
  return undefined;
}

// The walk's stack, reused from call to call; a toJSON that checks a message itself gets a fresh one.
const sharedStack: unknown[] = [];
let walking = false;

/**
 * True when nothing in `root` is nested deeper than MAX_NESTING_DEPTH and no key is forbidden. Visits objects only,
 * without recursion; strings are left to the scan of the JSON (mayHoldUnstorableText).
 */
function hasSoundStructure(root: object, rootLevel: number): boolean {
  if (walking) return walkStructure(root, rootLevel, []);
  walking = true;
  try {
    return walkStructure(root, rootLevel, sharedStack);
  } finally {
    walking = false;
    // A walk that stopped early leaves objects behind; they must not be kept alive.
    if (sharedStack.length > 0) sharedStack.length = 0;
  }
}

/** The stack holds pairs: an object (toJSON applied) and its level. */
function walkStructure(root: object, rootLevel: number, stack: unknown[]): boolean {
  stack.push(asJson(root), rootLevel);
  while (stack.length > 0) {
    const level = stack.pop() as number;
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (level > MAX_NESTING_DEPTH) return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        const item = value[i] as unknown;
        if (typeof item === 'object' && item !== null) stack.push(asJson(item), level + 1);
      }
      continue;
    }
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if ((key === '__proto__' || key === 'constructor') && forbiddenKeyProblem(key, item) !== undefined) return false;
      if (typeof item === 'object' && item !== null) stack.push(asJson(item), level + 1);
    }
  }
  return true;
}

/** The JSON of deeply frozen objects (such as a client library's constant context): they never change. */
const frozenJson = new WeakMap<object, string>();

/** True when `root` and every object in it is frozen, and none has a toJSON (whose result could vary). */
function isDeepFrozen(root: object): boolean {
  const objects: object[] = [root];
  while (objects.length > 0) {
    const value = objects.pop() as Record<string, unknown>;
    if (!Object.isFrozen(value) || typeof value.toJSON === 'function') return false;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (typeof item === 'object' && item !== null) objects.push(item);
    }
  }
  return true;
}

/** JSON.stringify(value), remembered for a deeply frozen object. Throws as JSON.stringify does (a BigInt, a cycle). */
export function objectJson(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let json = frozenJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    if (isDeepFrozen(value)) frozenJson.set(value, json);
  }
  return json;
}

interface Frame {
  value: unknown;
  level: number;
  path: PathPart[];
}

/** The slow, exact walk, for values that failed a fast check: every check, with the path of each problem. */
function findProblems(root: unknown, rootLevel: number, rootPath: readonly PathPart[], issues: Issue[]): void {
  const stack: Frame[] = [{ value: root, level: rootLevel, path: [...rootPath] }];
  let found = 0;
  const report = (path: readonly PathPart[], message: string): void => {
    issues.push({ path, message });
    found += 1;
  };
  while (stack.length > 0 && found < MAX_ISSUES_PER_VALUE) {
    const frame = stack.pop() as Frame;
    const value = asJson(frame.value);
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem !== undefined) report(frame.path, problem);
    } else if (typeof value === 'object' && value !== null) {
      if (frame.level > MAX_NESTING_DEPTH) {
        report(rootPath, TOO_DEEP);
        return;
      }
      const entries: [PathPart, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
      for (const [key, item] of entries) {
        if (typeof key !== 'string') continue;
        const problem = textProblem(key);
        if (problem !== undefined) report(frame.path, `has a key ${JSON.stringify(key.slice(0, 40))} that ${problem}`);
        const forbidden = forbiddenKeyProblem(key, item);
        if (forbidden !== undefined) report(frame.path, forbidden);
      }
      // Pushed last first, so the walk visits them in order.
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, item] = entries[i];
        stack.push({ value: item, level: frame.level + 1, path: [...frame.path, key] });
      }
    }
  }
}

/**
 * Checks the shape of an object found at `path` inside a message, `level` levels deep (a top-level field such as
 * `properties` is at level 2): nesting within MAX_NESTING_DEPTH and no key the ingest API's JSON parser refuses. Its
 * text is checked by `checkJsonText` once the message's JSON shows it may need it. Adds what is wrong to `issues`;
 * returns whether it was fine.
 */
export function checkJsonStructure(value: object, path: readonly PathPart[], level: number, issues: Issue[]): boolean {
  if (hasSoundStructure(value, level)) return true;
  findProblems(value, level, path, issues);
  return false;
}

/** Checks every string and key in `value` for text storage refuses; adds each problem found to `issues`. */
export function checkJsonText(value: unknown, path: readonly PathPart[], level: number, issues: Issue[]): boolean {
  const before = issues.length;
  findProblems(value, level, path, issues);
  return issues.length === before;
}

/** Every check at once, for a value checked on its own (the batch envelope's `context`). */
export function checkJsonValue(value: object, path: readonly PathPart[], level: number, issues: Issue[]): boolean {
  if (!checkJsonStructure(value, path, level, issues)) return false;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return json === undefined || !mayHoldUnstorableText(json) || checkJsonText(value, path, level, issues);
}
