import { join } from 'node:path';
import { SkevalError, workspaceIntentSchemas } from '@skeval/schema';
import { createTwoFilesPatch } from 'diff';
import picomatch from 'picomatch';
import { defineBuiltInGrader, requireWorkspace, verdict } from '../registry/grader.js';
import { listFiles } from '../workspace/list-files.js';
import { createWorkspaceReader, type WorkspaceReader, type WorkspaceText } from '../workspace/workspace-reader.js';
import { unreadable } from './evidence.js';

const maxEvidenceChars = 4000;

export const workspaceSnapshotDiff = defineBuiltInGrader({
  name: 'workspace-snapshot-diff',
  description: "A workspace folder matches an expected folder under the skill's evals/, file by file.",
  reads: ['workspace', 'skill'],
  schema: workspaceIntentSchemas['snapshot-diff'],
  grade(context) {
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

    const isIgnored = ignore.length > 0 ? picomatch(ignore, { dot: true }) : () => false;
    const list = (reader: WorkspaceReader, folder: string) =>
      listFiles(join(reader.root, folder)).files.filter((file) => !isIgnored(file));
    const expectedFiles = list(evalsFolder, expected);
    const actualFiles = list(workspace, path);
    const missing = expectedFiles.filter((file) => !actualFiles.includes(file));
    const extra = actualFiles.filter((file) => !expectedFiles.includes(file));
    const differences: string[] = [];
    for (const file of expectedFiles.filter((candidate) => actualFiles.includes(candidate))) {
      const want = evalsFolder.readText(`${expected}/${file}`);
      const got = workspace.readText(path === '.' ? file : `${path}/${file}`);
      const difference = compare(file, want, got);
      if (difference) differences.push(difference);
    }
    const compared = `${expectedFiles.length} expected file${expectedFiles.length === 1 ? '' : 's'}, ${actualFiles.length} in the workspace`;
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

function compare(file: string, want: WorkspaceText, got: WorkspaceText): string | undefined {
  if (want.status === 'text' && got.status === 'text') {
    if (want.text === got.text) return undefined;
    return createTwoFilesPatch(`expected/${file}`, `actual/${file}`, want.text, got.text, '', '', { context: 2 });
  }
  if (want.status === 'binary' && got.status === 'binary')
    return `${file}: binary files are not compared; leave them out with \`ignore\``;
  return `${file}: ${unreadable(got) ?? unreadable(want) ?? 'one side is text and the other binary'}`;
}
