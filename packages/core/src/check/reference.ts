import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { type LoadedCase, referenceStubMarker } from '@skeval/evals/internal';
import { caseFolderName } from '@skeval/run-folder';
import { SkevalError, type Trace } from '@skeval/schema';
import { listFiles } from '@skeval/scripts/internal';

/** A case's known-good end state: the answer, and the files the workspace should hold at the end. */
export interface Reference {
  /** Where it came from, as reports show it: `evals/reference/1/`, `evals.json`, a run's case folder. */
  source: string;
  response: string;
  /** The end-state files (what `outputs/` of a case run holds), by path from the workspace. */
  files: Map<string, Buffer>;
  /** The trace of the run it was taken from; a written reference has none. */
  trace?: Trace;
}

/** The folder of a case's reference below `reference/`: the case id, made safe as run folders make it. */
export function referenceFolderName(caseId: string): string {
  return caseFolderName(caseId).slice('eval-'.length);
}

/** `reference/` beside the evals file: `<skill>/evals/reference/` for `evals/evals.json`. */
export function referenceRootOf(evalsPath: string): string {
  return join(dirname(evalsPath), 'reference');
}

/** What was found for a case: its reference, a stub still to be written, or nothing. */
export type ReferenceLookup =
  | { status: 'found'; reference: Reference }
  | { status: 'stub'; path: string }
  | { status: 'none' };

/**
 * A case's reference: its `reference` key in the evals file, else `reference/<case-id>/`
 * (`response.md` and `outputs/`) beside the evals file. A folder that leaves the skill, or a
 * link in it, is refused with the file named.
 */
export async function loadReference(options: {
  skillDir: string;
  evalsPath: string;
  evalCase: LoadedCase;
}): Promise<ReferenceLookup> {
  const { skillDir, evalsPath, evalCase } = options;
  const shown = (path: string) => relative(skillDir, path).split(sep).join('/') || '.';
  if (evalCase.reference) {
    const folder = evalCase.reference.files
      ? await folderInSkill(skillDir, dirname(evalsPath), evalCase.reference.files, evalsPath, evalCase.index)
      : undefined;
    return {
      status: 'found',
      reference: {
        source: `${shown(evalsPath)}: evals[${evalCase.index}].reference`,
        response: evalCase.reference.response ?? '',
        files: folder ? await readFolder(folder, skillDir) : new Map(),
      },
    };
  }
  const dir = join(referenceRootOf(evalsPath), referenceFolderName(evalCase.id));
  const responsePath = join(dir, 'response.md');
  const response = await readFile(responsePath, 'utf8').catch(() => undefined);
  const outputsDir = join(dir, 'outputs');
  const hasOutputs = await isFolder(outputsDir);
  if (response === undefined && !hasOutputs) return { status: 'none' };
  if (response?.startsWith(referenceStubMarker)) return { status: 'stub', path: shown(responsePath) };
  await refuseOutside(dir, skillDir, shown(dir));
  return {
    status: 'found',
    reference: {
      source: `${shown(dir)}/`,
      // As a run's assistant.md is read back: one final newline is the file's, not the answer's.
      response: response?.replace(/\n$/, '') ?? '',
      files: hasOutputs ? await readFolder(outputsDir, skillDir) : new Map(),
    },
  };
}

const isFolder = (path: string) =>
  stat(path).then(
    (entry) => entry.isDirectory(),
    () => false,
  );

/** A `reference.files` folder: in the skill folder, or in its evals/ folder, and never outside it. */
async function folderInSkill(
  skillDir: string,
  evalsDir: string,
  path: string,
  evalsPath: string,
  index: number,
): Promise<string> {
  for (const candidate of [join(skillDir, path), join(evalsDir, path)]) {
    if (await isFolder(candidate)) {
      await refuseOutside(candidate, skillDir, `${evalsPath}: evals[${index}].reference.files`);
      return candidate;
    }
  }
  throw new SkevalError({
    code: 'invalid_input',
    message: `${evalsPath}: evals[${index}].reference.files: ${JSON.stringify(path)} is not a folder in the skill (nor in its evals/ folder); give the folder that holds the files the workspace should end with`,
  });
}

async function refuseOutside(path: string, skillDir: string, label: string): Promise<void> {
  const [real, root] = await Promise.all([realpath(path), realpath(skillDir)]);
  if (real !== root && !real.startsWith(root + sep))
    throw new SkevalError({
      code: 'invalid_input',
      message: `${label}: resolves outside the skill folder (${real}); keep references inside the skill`,
    });
}

/** Every file below `dir`, by its path from `dir`; a link is refused (a reference is plain files). */
export async function readFolder(dir: string, skillDir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const path of listFiles(dir).files) {
    const full = join(dir, path);
    if ((await lstat(full)).isSymbolicLink())
      throw new SkevalError({
        code: 'invalid_input',
        message: `${relative(skillDir, full)}: a link; a reference holds plain files (copy the file in its place)`,
      });
    files.set(path, await readFile(full));
  }
  return files;
}
