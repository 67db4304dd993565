import { basename } from 'node:path';
import type { Document } from 'yaml';
import type { JsonDocument } from '../load/json-document.js';
import { createLineIndex, decodeSource } from '../load/source-text.js';
import { type LoadTriggerSetOptions, readTriggerDocument } from './load-trigger-set.js';
import type { TriggerSetLoad } from './types.js';

/** A trigger file written in YAML: waza's `trigger_tests.yaml` (or `.yml`). */
export function isYamlTriggerFile(path: string): boolean {
  return /^trigger_tests\.ya?ml$/i.test(basename(path));
}

/**
 * Reads the trigger sets of a YAML file, as `loadTriggerSet` reads a JSON one: the same shapes,
 * each query and problem located at its line and column in the YAML. yaml is loaded only here,
 * when a YAML trigger file is read.
 */
export async function loadYamlTriggerSet(options: LoadTriggerSetOptions): Promise<TriggerSetLoad> {
  const { fileName } = options;
  const empty: TriggerSetLoad = { fileName, queries: [], shapes: {}, errors: [], warnings: [] };
  const decoded = decodeSource(options.source);
  if (!decoded.ok || decoded.text.trim() === '') return empty;
  const lines = createLineIndex(decoded.text);
  const yaml = await import('yaml');
  const document = yaml.parseDocument(decoded.text, { uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    const errors = document.errors.map((problem) => ({
      severity: 'error' as const,
      code: 'invalid-value' as const,
      message: `invalid YAML: ${problem.message.split('\n')[0]}`,
      path: [],
      pointer: '',
      ...lines.locate(problem.pos[0]),
    }));
    return { ...empty, errors };
  }
  return readTriggerDocument(yamlDocument(document, yaml), lines, options);
}

type Yaml = typeof import('yaml');

/** A parsed YAML document seen as the trigger reader sees JSON: its value and where each part sits. */
function yamlDocument(document: Document, yaml: Yaml): JsonDocument {
  const startOf = (node: unknown) => (yaml.isNode(node) ? node.range?.[0] : undefined);
  return {
    value: document.toJS({ maxAliasCount: 100 }),
    offsetOf(path, options = {}) {
      for (let depth = path.length; depth > 0; depth -= 1) {
        const at = path.slice(0, depth);
        const node = options.key && depth === path.length ? keyNodeOf(document, at, yaml) : document.getIn(at, true);
        const start = startOf(node);
        if (start !== undefined) return start;
      }
      return startOf(document.contents) ?? 0;
    },
    // A repeated key is a parse error (`uniqueKeys`), reported before the document is read.
    duplicateKeys: () => [],
  };
}

/** The key node of the pair at `path`: where a message about the key itself points. */
function keyNodeOf(document: Document, path: ReadonlyArray<string | number>, yaml: Yaml): unknown {
  const parent = path.length === 1 ? document.contents : document.getIn(path.slice(0, -1), true);
  if (!yaml.isMap(parent)) return undefined;
  return parent.items.find((pair) => yaml.isScalar(pair.key) && pair.key.value === path.at(-1))?.key;
}
