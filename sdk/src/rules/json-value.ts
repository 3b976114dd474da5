import type { Issue, PathPart } from './issues.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { isStorableText, textProblem } from './text.js';

/** Issues listed per message at most; one broken import row should not produce a wall of text. */
const MAX_ISSUES_PER_VALUE = 10;
const TOO_DEEP = `nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep (counting the message); flatten it`;

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

// The walk's stacks, reused from call to call; a toJSON that checks a message itself gets fresh ones.
const sharedValues: unknown[] = [];
const sharedLevels: number[] = [];
let walking = false;

/** True when every string and key in `root` can be stored and nothing is nested too deep. No recursion, no paths. */
function isStorable(root: unknown, rootLevel: number): boolean {
  if (walking) return walk(root, rootLevel, [], []);
  walking = true;
  try {
    return walk(root, rootLevel, sharedValues, sharedLevels);
  } finally {
    walking = false;
    // A walk that stopped early leaves values behind; they must not be kept alive.
    if (sharedValues.length > 0) {
      sharedValues.length = 0;
      sharedLevels.length = 0;
    }
  }
}

function walk(root: unknown, rootLevel: number, values: unknown[], levels: number[]): boolean {
  values.push(root);
  levels.push(rootLevel);
  while (values.length > 0) {
    const value = values.pop();
    const level = levels.pop() as number;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return false;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      values.push(asJson(value));
      levels.push(level);
      continue;
    }
    if (level > MAX_NESTING_DEPTH) return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        values.push(value[i]);
        levels.push(level + 1);
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (!isStorableText(key) || forbiddenKeyProblem(key, item) !== undefined) return false;
      values.push(item);
      levels.push(level + 1);
    }
  }
  return true;
}

interface Frame {
  value: unknown;
  level: number;
  path: PathPart[];
}

/** The slow walk, only for values that failed `isStorable`: the same checks, with the path of each problem. */
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
 * Deeply frozen values that passed the checks (such as a client library's constant context), with the level they
 * were checked at and their JSON: they can never change, so each is walked and serialized once.
 */
const frozenValues = new WeakMap<object, { level: number; json: string }>();

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

/** The JSON of an object that passed checkJsonValue: remembered for frozen ones, else JSON.stringify (which may throw). */
export function objectJson(value: object): string {
  return frozenValues.get(value)?.json ?? JSON.stringify(value);
}

/**
 * Checks a JSON value found at `path` inside a message, `level` levels deep (a top-level field such as `properties`
 * is at level 2): every string and object key must be storable, no key may be one the ingest API's JSON parser
 * refuses, and nesting must stay within MAX_NESTING_DEPTH.
 * Adds what is wrong to `issues`; returns whether it was fine.
 */
export function checkJsonValue(value: unknown, path: readonly PathPart[], level: number, issues: Issue[]): boolean {
  const object = typeof value === 'object' && value !== null ? value : undefined;
  if (object !== undefined && (frozenValues.get(object)?.level ?? 0) >= level) return true;
  if (isStorable(value, level)) {
    if (object !== undefined && Object.isFrozen(object) && isDeepFrozen(object)) frozenValues.set(object, { level, json: JSON.stringify(object) });
    return true;
  }
  findProblems(value, level, path, issues);
  return false;
}
