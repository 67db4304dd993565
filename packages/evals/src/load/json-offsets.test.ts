import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { parseIndexed } from './json-offsets.js';

const options = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };
const text = `{
  "skill_name": "demo",
  "evals": [
    { "id": 1, "prompt": "a", "assertions": ["x", { "type": "regex-match", "pattern": "a+" }] },
    { "id": "two", "prompt": "b", "files": [], "metadata": { "k": [1, 2, { "deep": null }] } }
  ],
  "dup": 1,
  "dup": 2,
  "__proto__": { "polluted": true }
}`;

/** Every path to a value of `value`, in document order. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, at) => pathsOf(item, [...path, at]))];
  if (value && typeof value === 'object')
    return [path, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))];
  return [path];
}

describe('parseIndexed', () => {
  it('gives the value jsonc-parser gives, without prototypes', () => {
    const { document } = parseIndexed(text, options);
    const tree = parseTree(text);
    expect(tree).toBeDefined();
    expect(document?.value).toEqual(tree ? getNodeValue(tree) : undefined);
    expect(Object.getPrototypeOf(document?.value)).toBeNull();
  });

  it('locates every value and property name where jsonc-parser tree does', () => {
    const { document } = parseIndexed(text, options);
    const tree = parseTree(text);
    if (!document || !tree) throw new Error('the sample did not parse');
    // jsonc-parser's lookup takes the first of repeated keys; the value (and so the location) is the last's.
    for (const path of pathsOf(document.value).filter((path) => path[0] !== 'dup')) {
      const node = findNodeAtLocation(tree, path);
      expect(document.offsetOf(path), path.join('.')).toBe(node?.offset);
      if (path.length > 0 && typeof path.at(-1) === 'string')
        expect(document.offsetOf(path, { key: true }), path.join('.')).toBe(node?.parent?.children?.[0]?.offset);
    }
  });

  it('locates an absent path at its deepest existing ancestor', () => {
    const { document } = parseIndexed(text, options);
    expect(document?.offsetOf(['evals', 1, 'missing', 3])).toBe(text.indexOf('{ "id": "two"'));
    expect(document?.offsetOf(['evals', 7])).toBe(text.indexOf('['));
    expect(document?.offsetOf(['evals', 'x'])).toBe(text.indexOf('['));
  });

  it('names each repeated property once per repeat, the later value winning', () => {
    const { document } = parseIndexed(text, options);
    expect(document?.duplicateKeys()).toEqual([{ path: [], key: 'dup', offset: text.lastIndexOf('"dup"') }]);
    expect(Reflect.get(Object(document?.value), 'dup')).toBe(2);
    expect(document?.offsetOf(['dup'])).toBe(text.indexOf('2', text.lastIndexOf('"dup"')));
    expect(document?.offsetOf(['dup'], { key: true })).toBe(text.lastIndexOf('"dup"'));
  });

  it("reports jsonc-parser's syntax errors and gives no document", () => {
    const broken = '{ "a": 1, }';
    const errors: Parameters<typeof parseTree>[1] = [];
    parseTree(broken, errors, options);
    const parsed = parseIndexed(broken, options);
    expect(parsed.document).toBeUndefined();
    expect(parsed.errors).toEqual(errors);
  });
});
