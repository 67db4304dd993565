import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { importForeignFile } from './import-file.js';

const fixture = (path: string) => fileURLToPath(new URL(`../__fixtures__/real-world/${path}`, import.meta.url));

describe("skillgrade's eval.yaml from its public examples, read in place", () => {
  it("reads a task as a case: the instruction the prompt, the workspace seeded, the rubric's criteria judged", async () => {
    const result = await loadEvalsFileFromDisk(fixture('skillgrade-superlint/eval.yaml'), 'eval.yaml');
    expect(result.errors).toEqual([]);
    const [only, ...rest] = result.evals?.cases ?? [];
    expect(rest).toEqual([]);
    expect(only?.id).toBe('fix-linting-errors');
    expect(only?.prompt).toMatch(/^Our internal app\.js violates our coding standards/);
    expect(only?.prompt).toMatch(/3\. Verify — Run `superlint verify`.*`\.superlint-passed`$/);
    expect(only?.setup).toEqual({ kind: 'seeded', sources: [{ from: 'fixtures/app.js', to: 'app.js' }] });
    expect(only?.assertions.map((assertion) => [assertion.spec.mode, assertion.text])).toEqual([
      ['judge', 'Did the agent follow check → fix → verify?'],
      ['judge', 'Did it use superlint (not eslint or manual edits)?'],
      ['judge', 'Completed in ≤5 commands?'],
      ['judge', 'No unnecessary trial-and-error?'],
    ]);
    const messages = result.warnings.map((issue) => issue.message);
    expect(messages).toContain("read as skillgrade's eval.yaml: 1 case");
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^not imported: tasks\[0\] \(fix-linting-errors\)\.graders\[0\]: a deterministic grader \(`passed=0`\) runs a shell command/,
      ),
    );
    expect(messages).toContain(
      'not imported: tasks[0] (fix-linting-errors).workspace[1]: `dest` "/usr/local/bin/superlint" is outside the workspace (a path in skillgrade\'s container); Skeval writes files only into the workspace: give a path under it and name that path in the prompt',
    );
    expect(messages).toContain('not imported: `defaults.trials`: the trials of a task: run `skeval run --runs <n>`');
  });

  it('reads the advanced example: a nested fixture path seeded where the task puts it, ten criteria', async () => {
    const result = await importForeignFile({ absolutePath: fixture('skillgrade-angular-modern/eval.yaml') });
    expect(result.format).toBe('skillgrade');
    const [only] = result.evals.evals;
    expect(only?.setup).toEqual({
      kind: 'seeded',
      sources: [{ from: 'fixtures/src/app/user-profile.component.ts', to: 'src/app/user-profile.component.ts' }],
    });
    expect(only?.assertions).toHaveLength(10);
    expect(only?.assertions[0]).toBe('Are signal inputs properly typed with input<Type>() or input.required<Type>()?');
    expect(result.lost[0]).toContain('(`node graders/check-modern-apis.js`)');
  });
});

describe("skillgrade's eval.yaml, each mapping", () => {
  let root: string;
  const write = async (path: string, text: string) => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  };
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'skeval-skillgrade-'));
    await mkdir(join(root, 'repo/.git'), { recursive: true });
    await write('repo/skill/instructions/fix.md', 'Fix the linting errors in app.js.\n');
    await write('repo/skill/rubrics/quality.md', 'The agent explains each change it made.\n');
    await write('outside/secret.md', 'a file outside the repository\n');
    await symlink(join(root, 'outside/secret.md'), join(root, 'repo/skill/leak.md'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const importText = async (text: string) => {
    await write('repo/skill/eval.yaml', text);
    return importForeignFile({ absolutePath: join(root, 'repo/skill/eval.yaml') });
  };

  it('reads an instruction and a rubric from the files they name; a rubric without criteria is one claim', async () => {
    const result = await importText(
      'tasks:\n  - name: fix\n    instruction: instructions/fix.md\n    graders:\n      - type: llm_rubric\n        rubric: rubrics/quality.md\n',
    );
    expect(result.evals.evals).toEqual([
      {
        id: 'fix',
        prompt: 'Fix the linting errors in app.js.',
        assertions: ['The agent explains each change it made.'],
      },
    ]);
    expect(result.mapped).toEqual(['tasks[0] (fix).graders[0]: llm_rubric → 1 judged claim']);
  });

  it('reads an llm_rubric with outcome_assertions as one judged claim each', async () => {
    const result = await importText(
      'tasks:\n  - name: o\n    instruction: Do it.\n    graders:\n      - type: llm_rubric\n        outcome_assertions:\n          - Did the agent follow the 3-step workflow?\n          - Did it complete in <=5 commands?\n',
    );
    expect(result.evals.evals[0]?.assertions).toEqual([
      'Did the agent follow the 3-step workflow?',
      'Did it complete in <=5 commands?',
    ]);
    expect(result.mapped).toEqual(['tasks[0] (o).graders[0]: llm_rubric outcome_assertions → 2 judged claims']);
  });

  it("merges defaults.workspace with a task's, the task's entry winning for the same dest; inline content and shorthand paths", async () => {
    const result = await importText(
      [
        'defaults:',
        '  workspace:',
        '    - src: fixtures/a.txt',
        '      dest: a.txt',
        '    - fixtures/shared.txt',
        'tasks:',
        '  - name: t',
        '    instruction: Do it.',
        '    workspace:',
        '      - src: fixtures/b.txt',
        '        dest: a.txt',
        '      - content: "x = 1\\n"',
        '        dest: src/x.py',
        '      - src: ../../elsewhere.txt',
        '        dest: e.txt',
        '    graders:',
        '      - type: tool_usage',
        '        expectedTools:',
        '          - name: bash',
        '            args: { command: ls }',
        '',
      ].join('\n'),
    );
    const [only] = result.evals.evals;
    expect(only?.files).toEqual([{ path: 'src/x.py', content: 'x = 1\n' }]);
    expect(only?.setup?.sources).toEqual([
      { from: 'fixtures/b.txt', to: 'a.txt' },
      { from: 'fixtures/shared.txt', to: 'shared.txt' },
    ]);
    expect(only?.assertions).toEqual([{ id: 'bash-called', kind: 'behavior', method: 'tool-called', tool: 'bash' }]);
    expect(result.lost).toEqual([
      'tasks[0] (t).graders[0].expectedTools[0]: `args` not checked; only the name is',
      'tasks[0] (t).workspace[2]: `src` "../../elsewhere.txt" is outside the skill folder; not imported',
    ]);
  });

  it('refuses an instruction file that links out of the repository, and does not import the task', async () => {
    const result = await importText('tasks:\n  - name: leak\n    instruction: leak.md\n    graders: []\n');
    expect(result.evals.evals).toEqual([]);
    expect(result.lost).toEqual([
      `tasks[0] (leak).instruction: leak.md resolves outside the repository (${join(root, 'repo')}); not read: copy it into the skill folder`,
      'tasks[0] (leak): no instruction to give the agent; the task is not imported',
    ]);
  });

  it("lists each of skillgrade's own task keys once, with how to get the same from Skeval", async () => {
    const result = await importText(
      'tasks:\n  - name: a\n    instruction: A.\n    trials: 3\n    graders: []\n  - name: b\n    instruction: B.\n    trials: 2\n    timeout: 60\n    graders: []\n',
    );
    expect(result.lost).toEqual([
      '`trials` (in 2 tasks): the trials of a task: run `skeval run --runs <n>`',
      "`timeout` (in 1 task): each trial's time limit: run `skeval run --timeout <seconds>`",
    ]);
  });
});
