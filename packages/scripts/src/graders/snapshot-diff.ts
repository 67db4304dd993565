import { join } from 'node:path';
import { SkevalError } from '@skeval/schema';
import { workspaceIntentSchemas } from '@skeval/schema/internal';
import { type RegexRunner, runRegexEach } from '../regex/regex-runner.js';
import { defineBuiltInGrader, requireWorkspace, verdict } from '../registry/grader.js';
import { listFiles } from '../workspace/list-files.js';
import { createWorkspaceReader, type WorkspaceReader } from '../workspace/workspace-reader.js';
import { compareFiles } from './snapshot-compare.js';

const maxEvidenceChars = 4000;

/**
 * Where Skeval installs the skill under test inside the workspace (one per agent). They are
 * Skeval's, not the run's output, so a snapshot of the workspace leaves them out.
 */
export const installedSkillFolders = ['.claude/skills', '.agents/skills', '.pi/skills', '.codex/skills'];

export const workspaceSnapshotDiff = defineBuiltInGrader({
  name: 'workspace-snapshot-diff',
  description: "A workspace folder matches an expected folder under the skill's evals/, file by file.",
  reads: ['workspace', 'skill'],
  schema: () => workspaceIntentSchemas['snapshot-diff'],
  async grade(context) {
    const workspace = requireWorkspace(context, 'workspace-snapshot-diff');
    const { expected, path = '.', ignore = [] } = context.config;
    if (!context.skillDir)
      throw new SkevalError({
        code: 'usage',
        message: '`workspace-snapshot-diff` compares with a folder under the skill, but no skill folder was given',
      });
    const text = `${path === '.' ? 'the workspace' : path} matches evals/${expected}`;
    const evalsFolder = createWorkspaceReader(join(context.skillDir, 'evals'));
    if (evalsFolder.entry(expected).status !== 'folder') {
      throw new SkevalError({
        code: 'invalid_input',
        message: `the expected folder evals/${expected} does not exist in the skill`,
      });
    }
    const actualRoot = workspace.entry(path);
    if (actualRoot.status !== 'folder')
      return verdict(
        text,
        false,
        actualRoot.status === 'refused' ? actualRoot.reason : `${path} is not a folder in the workspace`,
      );

    // Paths under the compared folder, as seen from the workspace root, to leave out installed skills.
    const prefix = path.replace(/^(?:\.\/)+|\/+$/g, '').replace(/^\.$/, '');
    const inWorkspace = (file: string) => (prefix ? `${prefix}/${file}` : file);
    // Asked to compare a folder inside one of them, the author means it: nothing is left out.
    const insideInstalled = installedSkillFolders.some((folder) => `${prefix}/`.startsWith(`${folder}/`));
    const isInstalledSkill = (file: string) =>
      !insideInstalled && installedSkillFolders.some((folder) => inWorkspace(file).startsWith(`${folder}/`));
    const expectedFiles = listSide(evalsFolder, expected, 'the expected folder').filter((f) => !isInstalledSkill(f));
    const actualFiles = listSide(workspace, path, 'the workspace').filter((f) => !isInstalledSkill(f));
    const ignored = await ignoredPaths(context.regex, ignore, [...expectedFiles, ...actualFiles]);
    const wanted = expectedFiles.filter((file) => !ignored.has(file));
    const present = actualFiles.filter((file) => !ignored.has(file));
    const presentSet = new Set(present);
    const wantedSet = new Set(wanted);
    const missing = wanted.filter((file) => !presentSet.has(file));
    const extra = present.filter((file) => !wantedSet.has(file));
    const differences: string[] = [];
    let evidenceChars = 0;
    for (const file of wanted.filter((candidate) => presentSet.has(candidate))) {
      const difference = await compareFiles(
        file,
        { reader: evalsFolder, path: `${expected}/${file}` },
        { reader: workspace, path: inWorkspace(file) },
        evidenceChars < maxEvidenceChars,
      );
      if (difference === undefined) continue;
      differences.push(difference);
      evidenceChars += difference.length;
    }
    const compared = `${wanted.length} expected file${wanted.length === 1 ? '' : 's'}, ${present.length} in the workspace`;
    if (missing.length === 0 && extra.length === 0 && differences.length === 0)
      return verdict(text, true, `identical: ${compared}`);
    const summary = [
      missing.length ? `missing: ${missing.join(', ')}` : '',
      extra.length ? `unexpected: ${extra.join(', ')}` : '',
      differences.length ? `${differences.length} file${differences.length === 1 ? '' : 's'} differ` : '',
    ].filter(Boolean);
    const evidence = `${summary.join('; ')} (${compared})\n${differences.join('\n')}`;
    return verdict(
      text,
      false,
      evidence.length > maxEvidenceChars
        ? `${evidence.slice(0, maxEvidenceChars)}\n… (diff cut at ${maxEvidenceChars} characters)`
        : evidence.trimEnd(),
    );
  },
});

/** The files of one side; a listing cut at its cap is an error: the files past it were never compared. */
function listSide(reader: WorkspaceReader, folder: string, what: string): string[] {
  const listing = listFiles(join(reader.root, folder));
  if (!listing.truncated) return listing.files;
  throw new SkevalError({
    code: 'grader_failed',
    message: `\`workspace-snapshot-diff\` listed ${listing.files.length.toLocaleString('en-US')} of ${listing.totalIsExact ? '' : 'more than '}${listing.total.toLocaleString('en-US')} files in ${what}, so it cannot say the folders match; leave files out with \`ignore\` or compare a smaller folder`,
  });
}

/**
 * The paths matched by an `ignore` glob. A glob becomes a regular expression (picomatch), and
 * one with many `*` backtracks polynomially on a long file name the agent chose: matching runs
 * in the regex worker under its time bound, like every other pattern from an evals file. picomatch
 * loads on the first `ignore`: a command that only reads evals files never compiles it.
 */
async function ignoredPaths(regex: RegexRunner, globs: string[], paths: string[]): Promise<Set<string>> {
  const { default: picomatch } = await import('picomatch');
  const ignored = new Set<string>();
  const unique = [...new Set(paths)];
  for (const glob of globs) {
    const compiled = picomatch.makeRe(glob, { dot: true });
    // picomatch also takes a path equal to the glob itself, before trying its expression.
    for (const path of unique) if (path === glob) ignored.add(path);
    const outcomes = await runRegexEach(regex, unique, (path) => ({
      pattern: compiled.source,
      flags: compiled.flags,
      text: path,
    }));
    for (const { item, outcome } of outcomes) {
      if (outcome.status === 'match') ignored.add(item);
      else if (outcome.status === 'error')
        throw new SkevalError({
          code: outcome.message.startsWith('regex timed out') ? 'grader_timeout' : 'grader_failed',
          message: `the \`ignore\` glob ${JSON.stringify(glob)} against ${JSON.stringify(item.slice(0, 80))}: ${outcome.message}`,
        });
    }
  }
  return ignored;
}
