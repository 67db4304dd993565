import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { importAgentv } from './agentv.js';
import { importCasesList } from './cases-list.js';
import { detectForeignFormat, isRecord } from './detect-format.js';
import { importPromptfoo } from './promptfoo.js';
import { createReadBound, createRepositoryReader, maxFileBytes } from './read-in-repository.js';
import { importSkillgrade } from './skillgrade.js';
import type { ImportResult, ReadReferenced, ReadText } from './types.js';
import { importVally } from './vally.js';
import { importWaza } from './waza.js';

export interface ImportForeignFileOptions {
  /** The file: a promptfoo config, an agentv, Vally, waza or skillgrade eval file, or a cases.yaml list (YAML or JSON). */
  absolutePath: string;
  /** The text, when the caller read it already. @default read from `absolutePath` */
  text?: string;
  /** The skill folder its cases run in: file paths are made relative to it. @default the file's folder */
  skillDir?: string;
  /** Whether a custom grader of that name exists (agentv's code graders are kept by name then). */
  graderExists?: (name: string) => boolean;
}

/**
 * Reads another tool's eval file as an evals.json: promptfoo (`prompts`/`providers`/`tests` with
 * `vars`/`assert`, test files through `file://`), agentv (`tests`/`evalcases`), Vally (`stimuli`), waza (`skill` and
 * `tasks` patterns of task files), skillgrade (`tasks` with an `instruction` each) or a `cases.yaml` list (`cases`).
 * The files it names are read only inside the git repository holding it (or the skill folder). Rejects with a plain
 * Error naming the file when it is not YAML or not either tool's. yaml (and the glob library, for the files a
 * promptfoo or waza file names) load here, on the first foreign file read, so a command that reads only evals.json
 * files never loads them.
 */
export async function importForeignFile(options: ImportForeignFileOptions): Promise<ImportResult> {
  const [{ parse: parseYaml }, { globSync }] = await Promise.all([import('yaml'), import('tinyglobby')]);
  const parseFile = (text: string, path: string) => parseYamlFile(parseYaml, text, path);
  const { absolutePath } = options;
  const fileDir = dirname(absolutePath);
  const skillDir = options.skillDir ?? fileDir;
  const value = parseFile(options.text ?? readFileSync(absolutePath, 'utf8'), absolutePath);
  const format = detectForeignFormat(value);
  if (format === 'cases') return importCasesList(value);
  if (format === undefined || !isRecord(value))
    throw new Error(
      `${basename(absolutePath)} is neither a promptfoo config (\`prompts\`, \`providers\`, \`tests\` with \`vars\`/\`assert\`), an agentv eval file (\`tests\` of cases with \`input\`, \`criteria\`, \`assertions\`), a Vally eval file (\`stimuli\` with \`prompt\` and \`graders\`), a waza eval spec (\`skill\` and \`tasks\` patterns of task files), a skillgrade eval.yaml (\`tasks\` with an \`instruction\` each) nor a cases.yaml list (\`cases\` with a \`prompt\` each)`,
    );
  const record = value;
  const inSkill = (path: string) => {
    const absolute = isAbsolute(path) ? path : resolve(fileDir, path);
    const within = relative(skillDir, absolute);
    return within.startsWith(`..${sep}`) || within === '..' || isAbsolute(within)
      ? undefined
      : within.split(sep).join('/');
  };
  const bound = createReadBound(absolutePath, skillDir);
  const refusal = (path: string) =>
    !bound.contains(path)
      ? `resolves outside ${bound.label}; not read: copy it into the skill folder`
      : statSync(path).size > maxFileBytes
        ? `is larger than ${maxFileBytes} bytes; not read`
        : undefined;
  const readReferenced: ReadReferenced = (pattern) =>
    globSync(pattern, { cwd: fileDir, absolute: true })
      .sort()
      .map((path) => {
        const shown = relative(fileDir, path) || path;
        const problem = refusal(path);
        return problem ? { path: shown, problem } : { path: shown, value: parseFile(readFileSync(path, 'utf8'), path) };
      });
  const readText: ReadText = (path) => {
    const absolute = resolve(fileDir, path);
    if (!existsSync(absolute) || !statSync(absolute).isFile()) return undefined;
    const problem = refusal(absolute);
    return problem ? { path, problem } : { text: readFileSync(absolute, 'utf8') };
  };
  const result =
    format === 'vally'
      ? importVally(record, inSkill, createRepositoryReader(absolutePath))
      : format === 'waza'
        ? importWaza(record, readReferenced, inSkill)
        : format === 'skillgrade'
          ? importSkillgrade(record, readText, inSkill)
          : format === 'promptfoo'
            ? importPromptfoo(record, readReferenced)
            : importAgentv(record, options.graderExists ?? (() => false));
  for (const entry of result.evals.evals) {
    if (!entry.files) continue;
    // agentv writes paths relative to the eval file (or, with a leading `/`, to the repository).
    entry.files = entry.files.map((path) => (typeof path === 'string' ? (inSkill(path) ?? path) : path));
  }
  return result;
}

function parseYamlFile(parseYaml: typeof import('yaml').parse, text: string, path: string): unknown {
  try {
    return parseYaml(text, { merge: true, maxAliasCount: 1000 });
  } catch (error) {
    throw new Error(
      `${basename(path)} is not YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
}

const formatNames = {
  promptfoo: "promptfoo's config",
  agentv: "agentv's eval file",
  vally: "Vally's eval file",
  waza: "waza's eval spec",
  skillgrade: "skillgrade's eval.yaml",
  cases: 'a cases.yaml list',
} as const;

/** The evals.json text of an import, with the lines that say how it was read. */
export function describeImport(result: ImportResult): string[] {
  return [
    `read as ${formatNames[result.format]}: ${result.evals.evals.length} case${result.evals.evals.length === 1 ? '' : 's'}`,
    ...result.mapped.map((line) => `mapped: ${line}`),
    ...result.lost.map((line) => `not imported: ${line}`),
  ];
}
