import { type ParseError, visit } from 'jsonc-parser';
import type { JsonDocument } from './json-document.js';

const kind = { literal: 0, object: 1, array: 2 } as const;

/** A growable column of 32-bit integers, one per value of the document. */
interface IntColumn {
  /** Appends a value; returns its index. */
  push(value: number): number;
  /** The value at `index`, or -1 past the end. */
  at(index: number): number;
  set(index: number, value: number): void;
  readonly length: number;
}

function createIntColumn(): IntColumn {
  let values = new Int32Array(1024);
  let length = 0;
  return {
    push(value) {
      if (length === values.length) {
        const grown = new Int32Array(values.length * 2);
        grown.set(values);
        values = grown;
      }
      values[length] = value;
      length += 1;
      return length - 1;
    },
    at: (index) => (index >= 0 && index < length ? (values[index] ?? -1) : -1),
    set(index, value) {
      values[index] = value;
    },
    get length() {
      return length;
    },
  };
}

/** What the parse leaves: the value, and where each value of it (and each property name) sits. */
interface JsonIndex {
  kinds: IntColumn;
  offsets: IntColumn;
  /** The offset of the property name a value is under; -1 for an array item or the root. */
  keyOffsets: IntColumn;
  /** The property name a value is under, as a number into `keys`; -1 for an array item or the root. */
  keyIds: IntColumn;
  /** A container's children are `children[childStarts[node] .. childStarts[node] + childCounts[node]]`. */
  childStarts: IntColumn;
  childCounts: IntColumn;
  children: IntColumn;
  keys: string[];
  keyIdOf: Map<string, number>;
}

/**
 * Parses JSON text in one pass into its value (objects without a prototype, as jsonc-parser's
 * tree gives them) and a compact index of offsets: a few integers per value instead of a tree
 * of objects, which for an evals file of ten thousand cases held some 80 MB where this holds
 * about 10. Syntax errors are jsonc-parser's own, as `parseTree` reports them.
 */
export function parseIndexed(
  text: string,
  options: { disallowComments: boolean; allowTrailingComma: boolean; allowEmptyContent: boolean },
): { errors: ParseError[]; document: JsonDocument | undefined } {
  const errors: ParseError[] = [];
  const index: JsonIndex = {
    kinds: createIntColumn(),
    offsets: createIntColumn(),
    keyOffsets: createIntColumn(),
    keyIds: createIntColumn(),
    childStarts: createIntColumn(),
    childCounts: createIntColumn(),
    children: createIntColumn(),
    keys: [],
    keyIdOf: new Map(),
  };
  // The open containers: their node, their value, and the nodes of their children so far.
  const open: Array<{ node: number; value: Record<string, unknown> | unknown[]; children: number[] }> = [];
  let pendingKey: { id: number; name: string; offset: number } | undefined;
  let root: unknown;
  const add = (nodeKind: number, offset: number, value: unknown): number => {
    const node = index.kinds.push(nodeKind);
    index.offsets.push(offset);
    index.keyOffsets.push(pendingKey?.offset ?? -1);
    index.keyIds.push(pendingKey?.id ?? -1);
    index.childStarts.push(0);
    index.childCounts.push(0);
    const parent = open[open.length - 1];
    if (!parent) root = value;
    else if (Array.isArray(parent.value)) parent.value.push(value);
    else if (pendingKey) parent.value[pendingKey.name] = value;
    parent?.children.push(node);
    pendingKey = undefined;
    return node;
  };
  const close = () => {
    const container = open.pop();
    if (!container) return;
    index.childStarts.set(container.node, index.children.length);
    index.childCounts.set(container.node, container.children.length);
    for (const child of container.children) index.children.push(child);
  };
  visit(
    text,
    {
      onObjectBegin: (offset) => {
        const value: Record<string, unknown> = Object.create(null);
        open.push({ node: add(kind.object, offset, value), value, children: [] });
      },
      onObjectProperty: (name, offset) => {
        let id = index.keyIdOf.get(name);
        if (id === undefined) {
          id = index.keys.push(name) - 1;
          index.keyIdOf.set(name, id);
        }
        pendingKey = { id, name, offset };
      },
      onObjectEnd: close,
      onArrayBegin: (offset) => {
        const value: unknown[] = [];
        open.push({ node: add(kind.array, offset, value), value, children: [] });
      },
      onArrayEnd: close,
      onLiteralValue: (value: unknown, offset) => {
        add(kind.literal, offset, value);
      },
      onError: (error, offset, length) => {
        errors.push({ error, offset, length });
      },
    },
    options,
  );
  const document = errors.length === 0 && index.kinds.length > 0 ? documentOf(root, index) : undefined;
  return { errors, document };
}

function documentOf(value: unknown, index: JsonIndex): JsonDocument {
  return {
    value,
    offsetOf(path, options = {}) {
      let node = 0;
      for (const [at, segment] of path.entries()) {
        const child = childAt(index, node, segment);
        if (child === undefined) return index.offsets.at(node);
        if (options.key && at === path.length - 1 && index.keyOffsets.at(child) >= 0) return index.keyOffsets.at(child);
        node = child;
      }
      return index.offsets.at(node);
    },
    duplicateKeys() {
      const found: Array<{ path: Array<string | number>; key: string; offset: number }> = [];
      const walk = (node: number, path: Array<string | number>) => {
        const start = index.childStarts.at(node);
        const count = index.childCounts.at(node);
        const nodeKind = index.kinds.at(node);
        const seen = new Set<number>();
        for (let at = 0; at < count; at += 1) {
          const child = index.children.at(start + at);
          if (nodeKind === kind.array) {
            walk(child, [...path, at]);
            continue;
          }
          const id = index.keyIds.at(child);
          const key = index.keys[id] ?? '';
          if (seen.has(id)) found.push({ path, key, offset: index.keyOffsets.at(child) });
          seen.add(id);
          walk(child, [...path, key]);
        }
      };
      walk(0, []);
      return found;
    },
  };
}

/** The value node at one path segment; the last of duplicate keys wins. */
function childAt(index: JsonIndex, node: number, segment: string | number): number | undefined {
  const start = index.childStarts.at(node);
  const count = index.childCounts.at(node);
  const nodeKind = index.kinds.at(node);
  if (nodeKind === kind.array && typeof segment === 'number') {
    return Number.isInteger(segment) && segment >= 0 && segment < count
      ? index.children.at(start + segment)
      : undefined;
  }
  if (nodeKind !== kind.object) return undefined;
  const id = index.keyIdOf.get(String(segment));
  if (id === undefined) return undefined;
  for (let at = count - 1; at >= 0; at -= 1) {
    const child = index.children.at(start + at);
    if (index.keyIds.at(child) === id) return child;
  }
  return undefined;
}
