import type { IssueSink } from './issue-sink.js';

/** What the id pass needs of a case: where it is and the id as written (every object case, valid or not). */
export interface CaseIdentity {
  index: number;
  rawId?: string | number;
}

/**
 * Gives every case its id and reports what is wrong with the ids: two cases with the same
 * `String(id)` (an error), a case without an id (a warning; it takes its 1-based position, or
 * `case-<n>` when that is taken). Any id is fine as a run folder: core makes folder names unique.
 * Returns the id of each case by its index.
 */
export function assignIds(cases: readonly CaseIdentity[], sink: IssueSink): Map<number, string> {
  const firstById = new Map<string, CaseIdentity>();
  for (const entry of cases) {
    if (entry.rawId === undefined) continue;
    const id = String(entry.rawId);
    const first = firstById.get(id);
    if (first?.rawId === undefined) firstById.set(id, entry);
    else sink.error('duplicate-id', ['evals', entry.index, 'id'], duplicateIdMessage(entry.rawId, first));
  }
  const ids = new Map<number, string>();
  for (const entry of cases) {
    if (entry.rawId !== undefined) {
      ids.set(entry.index, String(entry.rawId));
      continue;
    }
    const position = String(entry.index + 1);
    const id = firstById.has(position) ? `case-${position}` : position;
    const taken = firstById.get(id);
    if (taken) {
      // Both names a case without an id could take are ids already: two cases would share a run folder.
      sink.error(
        'duplicate-id',
        ['evals', entry.index],
        `case has no \`id\`, and the names it would take are taken: \`${position}\` by evals[${firstById.get(position)?.index}] and \`${id}\` by evals[${taken.index}]; give this case an id of its own`,
      );
      continue;
    }
    firstById.set(id, entry);
    ids.set(entry.index, id);
    sink.warning(
      'missing-id',
      ['evals', entry.index],
      `case has no \`id\`; it is called \`${id}\` (its position); give it a stable id`,
    );
  }
  return ids;
}

function duplicateIdMessage(id: string | number, first: CaseIdentity): string {
  const where = `evals[${first.index}]`;
  const fix = 'give this case another id';
  if (typeof id === typeof first.rawId) return `duplicate case id ${JSON.stringify(id)}: ${where} has it too; ${fix}`;
  return `duplicate case id: ${JSON.stringify(id)} here and ${JSON.stringify(first.rawId)} in ${where} are the same id (ids are compared as text, String(id)); ${fix}`;
}
