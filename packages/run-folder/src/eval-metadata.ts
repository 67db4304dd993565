import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { type EvalMetadata, evalMetadataSchema } from '@skeval/schema';
import { eachAtOnce } from './at-once.js';
import type { BenchmarkCase } from './benchmark.js';
import { type CaseRunFolder, caseFolderName } from './layout.js';
import { readJsonArtifact } from './read-artifact.js';
import { writeJsonAtomic } from './write-atomic.js';

/** A case as a run folder's summary knows it: all of it from the evals file, or (after a merge) its ids and name. */
export interface SummaryCase extends BenchmarkCase {
  prompt?: string;
  /** Its assertions, in grading order. */
  assertions?: ReadonlyArray<{ text: string }>;
  expectedOutput?: string;
  description?: string;
}

/** Where skill-creator's tools look for a case's description: beside its arms and its runs. */
const evalMetadataFileName = 'eval_metadata.json';

/** Files read or written at a time: a run of thousands of cases has three files per case. */
const filesAtOnce = 16;

/** Integer ids given to string ids are six digits: above the numbers people give cases by hand, short enough to read. */
const firstHashedId = 100_000;
const hashedIdRange = 900_000;

/**
 * An integer for each case, as skill-creator's tools need one (its aggregator and viewer sort
 * and group by it, and break on a mix of numbers and strings): an integer id keeps its number
 * (`7` and `"7"` alike); any other id gets a number from a hash of it, the same in every run of
 * the file, and moved to the next free number in the rare case it meets another id's.
 */
export function integerEvalIds(cases: ReadonlyArray<{ id: string }>): Map<string, number> {
  const ids = new Map<string, number>();
  const taken = new Set<number>();
  const hashed: Array<{ id: string; start: number }> = [];
  for (const { id } of cases) {
    const number = integerOf(id);
    if (number === undefined) hashed.push({ id, start: hashedNumberOf(id) });
    else {
      ids.set(id, number);
      taken.add(number);
    }
  }
  // In a fixed order, so which of two colliding ids moves does not depend on where they are in the file.
  hashed.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const { id, start } of hashed) {
    let number = start;
    while (taken.has(number)) number = firstHashedId + ((number - firstHashedId + 1) % hashedIdRange);
    ids.set(id, number);
    taken.add(number);
  }
  return ids;
}

/** The number an id already is: an integer, or a string of one written plainly (`"12"`, not `"012"`). */
function integerOf(id: string): number | undefined {
  if (!/^-?(0|[1-9][0-9]*)$/.test(id) || id === '-0') return undefined;
  const number = Number(id);
  return Number.isSafeInteger(number) ? number : undefined;
}

function hashedNumberOf(id: string): number {
  return firstHashedId + (createHash('sha256').update(id).digest().readUInt32BE(0) % hashedIdRange);
}

/** Whether a case is known well enough to write its eval_metadata.json: a merge knows its cases only by their ids. */
export function describesCase(evalCase: SummaryCase): boolean {
  return evalCase.prompt !== undefined && evalCase.assertions !== undefined;
}

/** One case's eval_metadata.json; undefined for a case known only by its ids (its folder keeps the file it has). */
function evalMetadataOf(evalCase: SummaryCase, evalId: number): EvalMetadata | undefined {
  if (evalCase.prompt === undefined || evalCase.assertions === undefined) return undefined;
  return {
    eval_id: evalId,
    eval_name: evalCase.name || evalCase.id,
    prompt: evalCase.prompt,
    assertions: evalCase.assertions.map((assertion) => assertion.text),
    skeval_id: evalCase.id,
    negative_control: evalCase.negativeControl === true,
    ...(evalCase.expectedOutput === undefined ? {} : { expected_output: evalCase.expectedOutput }),
    ...(evalCase.description === undefined ? {} : { description: evalCase.description }),
  };
}

/**
 * Writes eval_metadata.json into the folder of every case with runs in the run folder and, when
 * runs are nested, into each arm folder too: skill-creator's aggregator reads it in `eval-<id>/`,
 * its viewer in a run's folder or the one above (`eval-<id>/<arm>/`).
 */
export async function writeEvalMetadata(options: {
  runDir: string;
  cases: readonly SummaryCase[];
  folders: readonly CaseRunFolder[];
}): Promise<void> {
  const ids = integerEvalIds(options.cases);
  const byFolder = new Map(options.cases.map((evalCase) => [caseFolderName(evalCase.id), evalCase]));
  // Each folder's file is made when a writer takes it: the case's folder, and its arm's when nested.
  function* targets(): Generator<[string, EvalMetadata]> {
    const seen = new Set<string>();
    for (const folder of options.folders) {
      const evalCase = byFolder.get(folder.folder);
      const evalId = evalCase ? ids.get(evalCase.id) : undefined;
      const metadata = evalCase && evalId !== undefined ? evalMetadataOf(evalCase, evalId) : undefined;
      if (!metadata) continue;
      const caseDir = join(options.runDir, folder.folder);
      for (const dir of folder.dir === caseDir ? [caseDir] : [caseDir, dirname(folder.dir)]) {
        if (seen.has(dir)) continue;
        seen.add(dir);
        yield [dir, metadata];
      }
    }
  }
  await eachAtOnce(targets(), filesAtOnce, ([dir, metadata]) =>
    writeJsonAtomic(join(dir, evalMetadataFileName), metadata, { ensureFolder: false }),
  );
}

/**
 * The cases with `negativeControl` filled in where the caller does not know it (a merge of
 * shards) from the eval_metadata.json the case folder already has.
 */
export async function withStoredControls(runDir: string, cases: readonly SummaryCase[]): Promise<SummaryCase[]> {
  const known = [...cases];
  await eachAtOnce(known.entries(), filesAtOnce, async ([at, evalCase]) => {
    if (evalCase.negativeControl !== undefined) return;
    const folder = caseFolderName(evalCase.id);
    const path = join(runDir, folder, evalMetadataFileName);
    const stored = await readJsonArtifact(path, evalMetadataSchema, `${folder}/${evalMetadataFileName}`);
    if (stored.status === 'ok') known[at] = { ...evalCase, negativeControl: stored.value.negative_control };
  });
  return known;
}
