import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { importAgentv } from './agentv.js';
import { detectForeignFormat, isRecord } from './detect-format.js';
import { importPromptfoo } from './promptfoo.js';
import type { ImportResult } from './types.js';
import { importVally } from './vally.js';

export interface ImportForeignFileOptions {
  /** The file: a promptfoo config or an agentv eval file (YAML or JSON). */
  absolutePath: string;
  /** The text, when the caller read it already. @default read from `absolutePath` */
  text?: string;
  /** The skill folder its cases run in: file paths are made relative to it. @default the file's folder */
  skillDir?: string;
  /** Whether a custom grader of that name exists (agentv's code graders are kept by name then). */
  graderExists?: (name: string) => boolean;
}

/** Names of the files Skeval reads as other tools' eval files beside a SKILL.md. */
export function isForeignEvalsFileName(path: string): boolean {
  const name = basename(path);
  return /^promptfooconfig\.ya?ml$/i.test(name) || /(^|\.)eval\.ya?ml$/i.test(name);
}

/**
 * Reads another tool's eval file as an evals.json: promptfoo (`prompts`/`providers`/`tests` with
 * `vars`/`assert`, test files through `file://`), agentv (`tests`/`evalcases`) or Vally (`stimuli`). Rejects with a plain
 * Error naming the file when it is not YAML or not either tool's. yaml (and the glob library, for promptfoo's test
 * files) load here, on the first foreign file read, so a command that reads only evals.json files never loads them.
 */
export async function importForeignFile(options: ImportForeignFileOptions): Promise<ImportResult> {
  const [{ parse: parseYaml }, { globSync }] = await Promise.all([import('yaml'), import('tinyglobby')]);
  const parseFile = (text: string, path: string) => parseYamlFile(parseYaml, text, path);
  const { absolutePath } = options;
  const fileDir = dirname(absolutePath);
  const skillDir = options.skillDir ?? fileDir;
  const value = parseFile(options.text ?? readFileSync(absolutePath, 'utf8'), absolutePath);
  const format = detectForeignFormat(value);
  if (format === undefined || !isRecord(value))
    throw new Error(
      `${basename(absolutePath)} is neither a promptfoo config (\`prompts\`, \`providers\`, \`tests\` with \`vars\`/\`assert\`), an agentv eval file (\`tests\` of cases with \`input\`, \`criteria\`, \`assertions\`) nor a Vally eval file (\`stimuli\` with \`prompt\` and \`graders\`)`,
    );
  const record = value;
  const inSkill = (path: string) => {
    const absolute = isAbsolute(path) ? path : resolve(fileDir, path);
    const within = relative(skillDir, absolute);
    return within.startsWith(`..${sep}`) || within === '..' || isAbsolute(within)
      ? undefined
      : within.split(sep).join('/');
  };
  const result =
    format === 'vally'
      ? importVally(record, inSkill)
      : format === 'promptfoo'
        ? importPromptfoo(record, (pattern) =>
            globSync(pattern, { cwd: fileDir, absolute: true })
              .sort()
              .map((path) => ({
                path: relative(fileDir, path) || path,
                value: parseFile(readFileSync(path, 'utf8'), path),
              })),
          )
        : importAgentv(record, options.graderExists ?? (() => false));
  for (const entry of result.evals.evals) {
    if (!entry.files) continue;
    // agentv writes paths relative to the eval file (or, with a leading `/`, to the repository).
    entry.files = entry.files.map((path) => inSkill(path) ?? path);
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
} as const;

/** The evals.json text of an import, with the lines that say how it was read. */
export function describeImport(result: ImportResult): string[] {
  return [
    `read as ${formatNames[result.format]}: ${result.evals.evals.length} case${result.evals.evals.length === 1 ? '' : 's'}`,
    ...result.mapped.map((line) => `mapped: ${line}`),
    ...result.lost.map((line) => `not imported: ${line}`),
  ];
}
