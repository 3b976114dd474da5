import { findJsonSyntaxError } from './json-syntax';

describe('findJsonSyntaxError', () => {
  it.each([
    ['{}'],
    [' [1, -2.5e3, "a\\n\\u00e9", true, false, null, {"b": []}] '],
    ['"just a string"'],
  ])('finds nothing wrong in valid JSON %s', (text) => {
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it.each([
    ['{"batch": [', 1, 12, 'the text ends where a value should be'],
    ['{"a":1,}', 1, 8, "expected a property name in double quotes, found '}'"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, `expected ',' or '}' after a property value, found '"'`],
    ['[1 2]', 1, 4, "expected ',' or ']' after an array element, found '2'"],
    ['{"a": tru}', 1, 7, "unexpected 't' where a value should be (a string in double quotes, a number, true, false, null, an object or an array)"],
    ['{"a": "b\nc"}', 1, 9, 'a control character (such as a line break) inside a string must be escaped, e.g. \\n'],
    ['{"a" 1}', 1, 6, "expected ':' after the property name, found '1'"],
    ['{"x": "\\q"}', 1, 8, '\\q is not an escape sequence JSON knows'],
    ['{"a": 1} x', 1, 10, "unexpected 'x' after the end of the JSON value"],
    ['{"a": "open', 1, 12, 'the string that starts at line 1, column 7 is never closed'],
  ])('locates the error in %j at line %i, column %i', (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toEqual({ line, column, reason });
  });

  it('scans deeply nested text without exhausting the stack', () => {
    expect(findJsonSyntaxError(`${'['.repeat(200_000)}1${']'.repeat(199_999)}`)).toMatchObject({ reason: "expected ',' or ']' after an array element, found the end of the text" });
  });
});
