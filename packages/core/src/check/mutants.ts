import { fileMutants, responseMutants, type TextChange } from './mutant-kinds.js';
import { lineDiff } from './text-edits.js';

/** The kinds of mutant, each a way a wrong answer differs from the right one. */
export const mutantKinds = [
  'file-deleted',
  'file-emptied',
  'file-truncated',
  'lines-shuffled',
  'number-off-by-one',
  'number-times-ten',
  'span-removed',
  'response-emptied',
  'response-is-prompt',
  'json-key-dropped',
  'table-column-dropped',
] as const;
export type MutantKind = (typeof mutantKinds)[number];

/** The target a response mutant changes, as mutant ids name it. */
export const responseTarget = 'response.md';

/** A file mutant's target: `outputs/<path>`. */
export const fileTarget = (path: string) => `outputs/${path}`;

/** What a content assertion matched in the reference: the span a `span-removed` mutant takes out. */
export interface MatchedSpan {
  /** The assertion's position in the case's assertions. */
  assertion: number;
  /** `response.md` or `outputs/<path>`. */
  target: string;
  index: number;
  length: number;
}

/** A wrong answer made from the reference by one change. */
export interface Mutant {
  /** Stable: `<kind>:<target>` and, where a target has several, `#<n>` (a number's place, an assertion, a key). */
  id: string;
  kind: MutantKind;
  /** `response.md` or `outputs/<path>`. */
  target: string;
  response: string;
  /** The end-state files (the reference's, one changed or gone). */
  files: Map<string, Buffer>;
  /** The change, as a short diff. */
  diff: string;
}

export interface GenerateMutantsOptions {
  caseId: string;
  prompt: string;
  response: string;
  files: ReadonlyMap<string, Buffer>;
  spans?: readonly MatchedSpan[];
  /** Mixed into the seed of the shuffles. @default 0 */
  seed?: number;
}

/**
 * Every deterministic mutant of a reference, in a fixed order: for each output file (by path)
 * deleted, emptied, truncated to half, lines shuffled, each number off by one and ×10, each
 * matched span removed, a JSON key dropped, a Markdown table column dropped; then the same
 * content changes of the response, the response emptied and replaced with the prompt. A mutant
 * that leaves the reference as it was, or repeats an earlier one, is left out. The same
 * reference gives the same mutants, ids and order on every machine.
 */
export function generateMutants(options: GenerateMutantsOptions): Mutant[] {
  const seed = `${options.seed ?? 0}:${options.caseId}`;
  const spans = options.spans ?? [];
  const mutants: Mutant[] = [];
  const seen = new Set<string>();
  const add = (target: string, change: TextChange, before: string, response: string, files: Map<string, Buffer>) => {
    const key = `${target}\u0000${change.after ?? '\u0001deleted'}`;
    if (change.after === before || seen.has(key)) return;
    seen.add(key);
    mutants.push({
      id: change.id,
      kind: change.kind,
      target,
      response,
      files,
      diff: change.after === undefined ? `- ${target} (deleted)` : lineDiff(before, change.after),
    });
  };
  for (const [path, content] of [...options.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const target = fileTarget(path);
    const text = textOf(content);
    const changes = fileMutants({
      target,
      text,
      seed,
      spans: spans.filter((span) => span.target === target),
    });
    for (const change of changes) {
      const files = new Map(options.files);
      if (change.after === undefined) files.delete(path);
      else files.set(path, Buffer.from(change.after));
      add(target, change, text ?? '', options.response, files);
    }
  }
  const responseSpans = spans.filter((span) => span.target === responseTarget);
  for (const change of responseMutants({ text: options.response, prompt: options.prompt, seed, spans: responseSpans }))
    add(responseTarget, change, options.response, change.after ?? '', new Map(options.files));
  return mutants;
}

/** A file's text, or undefined for a binary file (only deleted, never edited). */
export function textOf(content: Buffer): string | undefined {
  if (content.includes(0)) return undefined;
  const text = content.toString('utf8');
  return text.includes('\uFFFD') ? undefined : text;
}
