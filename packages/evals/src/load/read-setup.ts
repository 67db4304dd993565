import { isSetupKind, jsonTypeName, type Setup, setupKinds, setupSchemas } from '@skeval/schema/internal';
import { type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';
import { checkSkillPath } from './read-files.js';
import { setupPathBase } from './unsafe-path.js';

/** A case's `setup` as read: the setup to apply, or `ignored` when it is kept as written but not used. */
export type SetupRead = { setup?: Setup; ignored?: false } | { ignored: true };

const ignoredNote = 'it is ignored and the case starts in an empty workspace';

/**
 * Reads a case's `setup`. A known `kind` is checked strictly; a setup without one (free-form
 * notes, or a sentence) is ignored with a warning, as decision 0001 says.
 */
export function readSetup(value: unknown, path: JsonPath, sink: IssueSink): SetupRead {
  if (value === undefined) return {};
  if (typeof value === 'string') {
    sink.warning(
      'unknown-setup',
      path,
      `\`setup\` is a sentence, not a setup such as { "kind": "seeded", "sources": [{ "from": "files/in.md" }] }; ${ignoredNote} (kept in the case as written)`,
    );
    return { ignored: true };
  }
  if (!isPlainObject(value)) {
    sink.error(
      'invalid-value',
      path,
      `\`setup\` must be an object such as { "kind": "empty" }, got ${jsonTypeName(value)}`,
    );
    return {};
  }
  const { kind } = value;
  if (!isSetupKind(kind)) {
    const what = kind === undefined ? 'has no `kind`' : `has an unknown \`kind\` ${JSON.stringify(kind)}`;
    sink.warning(
      'unknown-setup',
      kind === undefined ? path : [...path, 'kind'],
      `\`setup\` ${what} (known: ${setupKinds.join(', ')}); ${ignoredNote}`,
    );
    return { ignored: true };
  }
  const schema = setupSchemas[kind];
  for (const key of unknownKeys(value, Object.keys(schema.shape))) {
    sink.warning('unknown-key', [...path, key], `unknown setup key \`${key}\` is kept but not used`, { key: true });
  }
  const setup = sink.check(schema, value, path, { pathBase: setupPathBase });
  // The sources are looked for even when another field is wrong: each problem is independent.
  const sources = kind === 'seeded' && Array.isArray(value.sources) ? value.sources : [];
  sources.forEach((source, index) => {
    if (isPlainObject(source)) checkSkillPath(source.from, [...path, 'sources', index, 'from'], sink);
  });
  if (kind === 'fixture') checkSkillPath(value.path, [...path, 'path'], sink);
  return setup ? { setup } : {};
}
