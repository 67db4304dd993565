import type { JsonPath } from './issue-sink.js';

/**
 * What a path in an evals file is relative to: a `files` entry or a `setup` source is in the
 * skill folder; the path a check looks at (and inline content's `path`) is in the agent's
 * workspace; a `snapshot-diff` `expected` folder is in the skill's evals/ folder.
 */
export type PathBase = 'skill' | 'workspace' | 'evals';

const baseNames: Record<PathBase, string> = {
  skill: 'the skill folder',
  workspace: "the agent's workspace",
  evals: "the skill's evals/ folder",
};

/** Why a path cannot be used relative to `base`, or `undefined` when it can (the rules of `relativePathSchema`). */
export function explainUnsafePath(path: string, base: PathBase): string | undefined {
  const folder = baseNames[base];
  if (path.length === 0) return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL byte';
  if (path.startsWith('/') || path.startsWith('\\'))
    return `\`${path}\` is absolute; give a path relative to ${folder}`;
  if (/^[A-Za-z]:/.test(path)) return `\`${path}\` starts with a drive letter; give a path relative to ${folder}`;
  if (path.split(/[\\/]/).includes('..')) return `\`${path}\` has a \`..\` segment; paths must stay inside ${folder}`;
  return undefined;
}

/**
 * What the path fields of an assertion are relative to, by the field's name: `expected` (of
 * `snapshot-diff`) is in evals/, `schema` (of `json-valid`) in the skill folder, every other
 * path (`path`, `target.file`) in the workspace the agent left.
 */
export function assertionPathBase(issuePath: JsonPath): PathBase {
  const field = issuePath[issuePath.length - 1];
  if (field === 'expected') return 'evals';
  if (field === 'schema') return 'skill';
  return 'workspace';
}

/** What the paths of a `setup` are relative to: a seeded source's `to` lands in the workspace; the rest is read from the skill folder. */
export function setupPathBase(issuePath: JsonPath): PathBase {
  return issuePath[issuePath.length - 1] === 'to' ? 'workspace' : 'skill';
}
