/** Where a JSON text first stops being JSON, for a message a person can act on. */
export interface JsonSyntaxError {
  /** 1-based, as editors count. */
  line: number;
  column: number;
  reason: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];

class Stop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

function shown(text: string, offset: number): string {
  const char = text[offset];
  if (char === undefined) return 'the end of the text';
  return char.charCodeAt(0) < 0x20 || char === "'" ? JSON.stringify(char) : `'${char}'`;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length, column: offset - lastBreak };
}

/** Scans a string literal starting at its opening quote; returns the offset after the closing quote. */
function scanString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') return i + 1;
    if (char.charCodeAt(0) < 0x20) throw new Stop(i, 'a control character (such as a line break) inside a string must be escaped, e.g. \\n');
    if (char !== '\\') continue;
    const escaped = text[i + 1];
    if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 5;
    else if (escaped !== undefined && ESCAPABLE.has(escaped)) i += 1;
    else throw new Stop(i, `\\${escaped ?? ''} is not an escape sequence JSON knows`);
  }
  throw new Stop(text.length, `the string that starts at line ${position(text, start).line}, column ${position(text, start).column} is never closed`);
}

/** Scans one scalar or the opening of a container at `i` (whitespace skipped); returns the offset after it. */
function scanValueStart(text: string, i: number, open: string[]): number {
  const char = text[i];
  if (char === undefined) throw new Stop(i, 'the text ends where a value should be');
  if (char === '{' || char === '[') {
    open.push(char);
    return i + 1;
  }
  if (char === '"') return scanString(text, i);
  NUMBER.lastIndex = i;
  const number = NUMBER.exec(text);
  if (number !== null) return i + number[0].length;
  const literal = LITERALS.find((word) => text.startsWith(word, i));
  if (literal !== undefined) return i + literal.length;
  throw new Stop(i, `unexpected ${shown(text, i)} where a value should be (a string in double quotes, a number, true, false, null, an object or an array)`);
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  return i;
}

function scan(text: string): void {
  const open: string[] = [];
  let i = skipWhitespace(text, 0);
  let expecting: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    i = skipWhitespace(text, i);
    if (expecting === 'key') {
      if (text[i] !== '"') throw new Stop(i, `expected a property name in double quotes, found ${shown(text, i)}`);
      i = skipWhitespace(text, scanString(text, i));
      if (text[i] !== ':') throw new Stop(i, `expected ':' after the property name, found ${shown(text, i)}`);
      i += 1;
      expecting = 'value';
      continue;
    }
    if (expecting === 'value') {
      const depth = open.length;
      i = scanValueStart(text, i, open);
      if (open.length > depth) {
        const closing = open.at(-1) === '{' ? '}' : ']';
        const next = skipWhitespace(text, i);
        if (text[next] === closing) {
          open.pop();
          i = next + 1;
          expecting = 'after';
        } else expecting = closing === '}' ? 'key' : 'value';
      } else expecting = 'after';
      continue;
    }
    const container = open.at(-1);
    if (container === undefined) {
      if (i < text.length) throw new Stop(i, `unexpected ${shown(text, i)} after the end of the JSON value`);
      return;
    }
    const closing = container === '{' ? '}' : ']';
    if (text[i] === ',') expecting = container === '{' ? 'key' : 'value';
    else if (text[i] === closing) open.pop();
    else throw new Stop(i, `expected ',' or '${closing}' after ${container === '{' ? 'a property value' : 'an array element'}, found ${shown(text, i)}`);
    i += 1;
  }
}

/** The first place `text` is not valid JSON (RFC 8259), or undefined when it is valid. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...position(text, error.offset), reason: error.reason };
  }
}
