import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { SkevalError } from '@skeval/schema';
import type { LintRule, LintWarning } from '../lint/lint-evals.js';
import { type CollapsedIssue, collapseIssues } from '../load/collapse-issues.js';
import type { EvalsIssueCode } from '../load/issues.js';
import { defaultMaxEvalsFileBytes } from '../load/load-evals-file.js';
import type { LoadResult } from '../load/types.js';
import { type EvalsFileTarget, findEvalsTargets } from '../skills/find-evals-files.js';
import { loadEvalsFileFromDisk, skillDirOf } from '../skills/load-from-disk.js';
import { parseSkillManifest, readSkillManifest } from '../skills/read-skill-manifest.js';
import { isYamlTriggerFile } from '../triggers/load-yaml-trigger-set.js';
import { triggerFilesOf } from '../triggers/skill-triggers.js';
import { type TriggerCounts, validateTriggers, validateYamlTriggerFile } from '../triggers/validate-triggers.js';

export interface ValidateEvalsOptions {
  /** Files or folders; folders are searched for evals files as discovery finds them (then `*.json`). */
  paths: string[];
  /** @default process.cwd() */
  cwd?: string;
  /** @default 10 MiB */
  maxBytes?: number;
  /** Also report what makes a valid eval set weak (`skeval validate --lint`). */
  lint?: boolean;
}

export interface ValidatedFile extends LoadResult {
  /** The file's path relative to `cwd`, as shown in messages. */
  fileName: string;
  absolutePath: string;
  valid: boolean;
  /** The skill folder the file was checked against (its `files` looked up there), when one was found. */
  skillDir?: string;
  /** With `lint`: the weaknesses of a valid file. */
  lint?: LintWarning[];
  /**
   * `warnings` for people: one entry per code and message, with a count and the first places
   * (`warnings` itself keeps every issue, for JSON output and `--verbose`).
   */
  collapsedWarnings: CollapsedIssue[];
  /** The trigger queries the file holds (`skeval triggers` runs them), when it holds any. */
  triggers?: TriggerCounts;
}

export interface ValidateEvalsResult {
  files: ValidatedFile[];
  summary: {
    files: number;
    valid: number;
    invalid: number;
    warnings: number;
    /** How many issues of each code, over all files. */
    byCode: Partial<Record<EvalsIssueCode, number>>;
    /** With `lint`: how many lint warnings and errors (a `TODO` prompt), and of each rule. */
    lint?: { warnings: number; errors: number; byRule: Partial<Record<LintRule, number>> };
  };
}

/** Validates every evals file the paths name and returns the located issues of each. */
export async function validateEvals(options: ValidateEvalsOptions): Promise<ValidateEvalsResult> {
  const cwd = options.cwd ?? process.cwd();
  const paths = options.paths.length > 0 ? options.paths : ['.'];
  const found = new Map<string, EvalsFileTarget>();
  for (const path of paths)
    for (const target of await findEvalsTargets(path, cwd)) {
      if (!found.has(target.absolutePath)) found.set(target.absolutePath, target);
      // Trigger files kept beside a skill's evals file are checked with it.
      for (const absolutePath of target.skillDir ? triggerFilesOf(target.skillDir) : [])
        if (!found.has(absolutePath)) found.set(absolutePath, { absolutePath, skillDir: target.skillDir });
    }
  if (found.size === 0) {
    throw new SkevalError({
      code: 'usage',
      message: `no evals files found in ${paths.join(', ')} (looked for evals.json files, then *.json)`,
    });
  }
  const files: ValidatedFile[] = [];
  for (const { absolutePath, skillDir } of found.values()) {
    const fileName = relative(cwd, absolutePath) || absolutePath;
    const manifestName = async () =>
      skillDir && existsSync(join(skillDir, 'SKILL.md')) ? (await readSkillManifest(skillDir)).name : undefined;
    let checked: Awaited<ReturnType<typeof validateTriggers>>;
    if (isYamlTriggerFile(absolutePath)) {
      const maxBytes = options.maxBytes ?? defaultMaxEvalsFileBytes;
      checked = await validateYamlTriggerFile(absolutePath, fileName, await manifestName(), maxBytes);
    } else {
      const loaded = await loadEvalsFileFromDisk(absolutePath, fileName, {
        maxBytes: options.maxBytes ?? defaultMaxEvalsFileBytes,
        ...(skillDir ? { skillDir } : {}),
      });
      checked = await validateTriggers(loaded, absolutePath, loaded.evals?.skillName ?? (await manifestName()));
    }
    const { result, triggers } = checked;
    const lint =
      options.lint && result.evals && result.locate
        ? await lintFile(skillDir ?? skillDirOf(absolutePath), result.evals, result.locate)
        : undefined;
    files.push({
      ...result,
      fileName,
      absolutePath,
      valid: result.errors.length === 0,
      ...(skillDir ? { skillDir } : {}),
      ...(lint ? { lint } : {}),
      collapsedWarnings: collapseIssues(result.warnings),
      ...(triggers ? { triggers } : {}),
    });
  }
  const byCode: Partial<Record<EvalsIssueCode, number>> = {};
  for (const issue of files.flatMap((file) => [...file.errors, ...file.warnings]))
    byCode[issue.code] = (byCode[issue.code] ?? 0) + 1;
  const valid = files.filter((file) => file.valid).length;
  const summary: ValidateEvalsResult['summary'] = {
    files: files.length,
    valid,
    invalid: files.length - valid,
    warnings: files.reduce((sum, file) => sum + file.warnings.length, 0),
    byCode,
  };
  if (options.lint) {
    const byRule: Partial<Record<LintRule, number>> = {};
    for (const warning of files.flatMap((file) => file.lint ?? []))
      byRule[warning.rule] = (byRule[warning.rule] ?? 0) + 1;
    const all = files.flatMap((file) => file.lint ?? []);
    const errors = all.filter((entry) => entry.severity === 'error').length;
    summary.lint = { warnings: all.length - errors, errors, byRule };
  }
  return { files, summary };
}

/** Lints a valid evals file, reading the SKILL.md of the skill it belongs to when there is one. */
async function lintFile(
  skillDir: string,
  evals: NonNullable<LoadResult['evals']>,
  locate: NonNullable<LoadResult['locate']>,
): Promise<LintWarning[]> {
  const skillMarkdownPath = join(skillDir, 'SKILL.md');
  const skillMarkdown = existsSync(skillMarkdownPath) ? await readFile(skillMarkdownPath, 'utf8') : undefined;
  const skillName =
    evals.skillName ??
    (skillMarkdown === undefined ? undefined : (await parseSkillManifest(skillMarkdown, skillDir)).name);
  // The lint rules load with `lint`: a plain validate never runs them.
  const { lintEvals } = await import('../lint/lint-evals.js');
  return lintEvals({
    evals,
    locate,
    skillDir,
    ...(skillName ? { skillName } : {}),
    ...(skillMarkdown === undefined ? {} : { skillMarkdown }),
  });
}
