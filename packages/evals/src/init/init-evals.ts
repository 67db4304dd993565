import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { resolveGrader } from '@skeval/scripts';
import { type LintWarning, lintEvals } from '../lint/lint-evals.js';
import type { EvalsIssue } from '../load/issues.js';
import { loadEvalsFile } from '../load/load-evals-file.js';
import { explainUnsafeSkillName, unsafeSkillNameMessage } from '../load/names.js';
import { parseSkillManifest } from '../skills/read-skill-manifest.js';
import { createSkillPathCheck, evalsFileOf } from '../skills/skill-folder.js';
import { formatJson } from './format-json.js';
import { writeReferenceStubs } from './reference-stubs.js';
import { readSkillHints, type SkillHints } from './skill-hints.js';
import { buildStarterEvals, type StarterEvals } from './starter-evals.js';

/** The JSON Schema of evals files, inside an installed `@skeval/schema`. */
const schemaInPackage = ['node_modules', '@skeval', 'schema', 'json-schema', 'evals.schema.json'];

export interface InitTargetOptions {
  /** The skill folder (it holds SKILL.md). @default "." */
  skillDir?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** Replace an existing `evals/evals.json`. */
  force?: boolean;
}

/** A skill folder `skeval init` can write a starter evals file into. */
export interface InitTarget {
  skillDir: string;
  /** `<skill>/evals/evals.json`. */
  evalsPath: string;
  skillName: string;
  description: string;
  /** What the description names: the requests the skill is for, the files it writes. */
  hints: SkillHints;
  /** Whether `evalsPath` exists (and `force` was given, else this is an error). */
  exists: boolean;
}

export interface InitEvalsOptions extends InitTargetOptions {
  /** Cases the skill is for; a negative control is added after them. @default 2 */
  cases?: number;
  /** Prompts for those cases, in order; a missing one is a `TODO` placeholder. */
  prompts?: readonly string[];
}

export interface InitEvalsResult extends InitTarget {
  /** The file as written. */
  evals: StarterEvals;
  /** `$schema` as written: the JSON Schema's path from the evals file's folder. */
  schemaPath: string;
  /** Whether the description's requests and files were used (they are left out where they would draw a warning). */
  derived: boolean;
  /** What `skeval validate --lint` says of the file besides its `TODO` prompts: nothing, unless a prompt given draws a warning. */
  warnings: Array<EvalsIssue | LintWarning>;
  /** The reference stubs written, `evals/reference/<id>/response.md` per case (one already there is kept). */
  references: string[];
}

/**
 * Checks that `skillDir` is a skill folder (it has a SKILL.md with a usable name) and that a
 * starter evals file may be written there: none exists, or `force` replaces `evals/evals.json`.
 * Anything else is a usage error that says what to do.
 */
export async function inspectInitTarget(options: InitTargetOptions = {}): Promise<InitTarget> {
  const cwd = options.cwd ?? process.cwd();
  const given = options.skillDir ?? '.';
  const skillDir = resolve(cwd, given);
  const shown = relative(cwd, skillDir) || '.';
  const stats = await stat(skillDir).catch(() => undefined);
  if (!stats?.isDirectory())
    throw new SkevalError({ code: 'usage', message: `${given}: no such folder; give the folder that holds SKILL.md` });
  const markdown = await readFile(join(skillDir, 'SKILL.md'), 'utf8').catch(() => undefined);
  if (markdown === undefined)
    throw new SkevalError({
      code: 'usage',
      message: `${join(shown, 'SKILL.md')}: not found; skeval init writes the evals of a skill, so run it in a skill folder (one with a SKILL.md) or give that folder: skeval init <skill-dir>`,
    });
  const manifest = await parseSkillManifest(markdown, skillDir);
  const unsafe = explainUnsafeSkillName(manifest.name);
  if (unsafe)
    throw new SkevalError({
      code: 'usage',
      message: `${join(shown, 'SKILL.md')}: ${unsafeSkillNameMessage('the skill name', manifest.name, unsafe)}; set it with \`name:\` in the front matter`,
    });
  const evalsPath = join(skillDir, 'evals', 'evals.json');
  const existing = evalsFileOf(skillDir);
  if (existing && existing !== evalsPath)
    throw new SkevalError({
      code: 'usage',
      message: `${relative(cwd, existing)}: the skill has an evals file already; skeval init writes evals/evals.json, which would be read instead of it, so it writes nothing (move or delete that file first)`,
    });
  if (existing && !options.force)
    throw new SkevalError({
      code: 'usage',
      message: `${relative(cwd, existing)}: exists; skeval init never overwrites it (--force replaces it with a starter set)`,
    });
  return {
    skillDir,
    evalsPath,
    skillName: manifest.name,
    description: manifest.description,
    hints: readSkillHints(manifest.description),
    exists: existing !== undefined,
  };
}

/**
 * Writes `evals/evals.json` for a skill: a starter set built from SKILL.md's name and
 * description, which `skeval validate --lint` passes without a warning. It never overwrites a
 * file unless `force` is given, and the file appears whole or not at all.
 */
export async function initEvals(options: InitEvalsOptions = {}): Promise<InitEvalsResult> {
  const cwd = options.cwd ?? process.cwd();
  const target = await inspectInitTarget(options);
  const schemaPath = schemaPathFor(target.skillDir, dirname(target.evalsPath), cwd);
  const markdown = await readFile(join(target.skillDir, 'SKILL.md'), 'utf8');
  const build = (hints: SkillHints) => {
    const evals = buildStarterEvals({
      skillName: target.skillName,
      hints,
      cases: options.cases ?? 2,
      ...(options.prompts ? { prompts: options.prompts } : {}),
      schemaPath,
    });
    const text = formatJson(evals);
    return { evals, text, warnings: check(text, target, markdown) };
  };
  // What the description says is used where it reads well; where it would draw a warning (the
  // prompt would name the skill, say) the plain starter set is written instead.
  let built = build(target.hints);
  let derived = true;
  if (built.warnings.length > 0) {
    const plain = build({ situations: [], files: [] });
    if (plain.warnings.length < built.warnings.length) {
      built = plain;
      derived = false;
    }
  }
  await mkdir(dirname(target.evalsPath), { recursive: true });
  await writeWhole(target.evalsPath, built.text, options.force ?? false, cwd);
  const references = await writeReferenceStubs({
    evalsDir: dirname(target.evalsPath),
    caseIds: built.evals.evals.map((evalCase) => evalCase.id),
  });
  return { ...target, evals: built.evals, schemaPath, derived, warnings: built.warnings, references };
}

/** What loading and linting say of the text: errors (a bug) are thrown, warnings returned. */
function check(text: string, target: InitTarget, markdown: string): Array<EvalsIssue | LintWarning> {
  const loaded = loadEvalsFile({
    source: text,
    fileName: target.evalsPath,
    graderExists: (name) => resolveGrader(name, { from: target.skillDir }).kind !== 'missing',
    checkSkillPath: createSkillPathCheck(target.skillDir),
  });
  if (!loaded.evals || !loaded.locate)
    throw new Error(
      `skeval init built an invalid evals file: ${loaded.errors.map((issue) => issue.message).join('; ')}`,
    );
  const lint = lintEvals({
    evals: loaded.evals,
    locate: loaded.locate,
    skillName: target.skillName,
    skillMarkdown: markdown,
    skillDir: target.skillDir,
  });
  // The placeholders init writes are its own: their lint errors are what the next steps say to edit.
  return [...loaded.warnings, ...lint.filter((entry) => entry.rule !== 'todo-prompt')];
}

/**
 * `$schema`: the path from the evals folder to the JSON Schema in the nearest installed
 * `@skeval/schema` up from the skill; else where `npm i -D @skeval/cli` would put it, beside the
 * nearest package.json (or in `cwd` when there is none).
 */
function schemaPathFor(skillDir: string, evalsDir: string, cwd: string): string {
  const ancestors: string[] = [];
  for (let dir = skillDir; ; dir = dirname(dir)) {
    ancestors.push(dir);
    if (dirname(dir) === dir) break;
  }
  const root =
    ancestors.find((dir) => existsSync(join(dir, ...schemaInPackage))) ??
    ancestors.find((dir) => existsSync(join(dir, 'package.json'))) ??
    resolve(cwd);
  const path = relative(evalsDir, join(root, ...schemaInPackage))
    .split(sep)
    .join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * Writes a temporary file beside `path`, then links it into place (which fails on a file that
 * exists) or, with `force`, renames it over the old one: the file appears whole or not at all.
 */
async function writeWhole(path: string, text: string, force: boolean, cwd: string): Promise<void> {
  const temporary = join(dirname(path), `.evals.json.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temporary, text, { flag: 'wx' });
  try {
    if (force) await rename(temporary, path);
    else
      await link(temporary, path).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') throw error;
        // A file system without hard links: an exclusive create still never overwrites.
        await writeFile(path, text, { flag: 'wx' });
      });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST')
      throw new SkevalError({
        code: 'usage',
        message: `${relative(cwd, path)}: exists; skeval init never overwrites it (--force replaces it with a starter set)`,
      });
    throw new SkevalError({
      code: 'io',
      message: `${relative(cwd, path)}: cannot write it: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  } finally {
    await rm(temporary, { force: true });
  }
}
