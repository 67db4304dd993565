import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAgentFlags, repoRoot, runBinary } from './__fixtures__/run-cli.js';

// The built CLI in its own process, not the sources: each command's bundle loads yaml on the first
// YAML file it reads, and must find yaml's named exports there (a bundled CommonJS build has none).

const realWorld = join(repoRoot, 'packages/evals/src/__fixtures__/real-world');
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-built-yaml-'));
  await cp(join(realWorld, 'waza-code-explainer'), join(root, 'code-explainer'), { recursive: true });
  await cp(join(realWorld, 'skillgrade-superlint'), join(root, 'superlint'), { recursive: true });
  await mkdir(join(root, 'triggered'));
  await cp(join(realWorld, 'waza-code-explainer/SKILL.md'), join(root, 'triggered/SKILL.md'));
  await cp(
    join(repoRoot, 'packages/evals/src/triggers/__fixtures__/public/waza-code-explainer.trigger_tests.yaml'),
    join(root, 'triggered/trigger_tests.yaml'),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the built skeval reads YAML in each command that reads it', () => {
  it.each([
    ['code-explainer', 'code-explainer: 4 cases × 1 arm × 1 run = 4 agent runs'],
    ['superlint', 'superlint: 1 case × 1 arm × 1 run = 1 agent run'],
  ])("plans the cases of %s's YAML eval file with run --dry-run", async (skill, planned) => {
    const result = await runBinary(root, ['run', skill, '--dry-run', ...exampleAgentFlags]);
    expect(result.stdout + result.stderr).toContain(planned);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it("runs the queries of waza's trigger_tests.yaml with triggers", async () => {
    const result = await runBinary(root, [
      'triggers',
      'triggered',
      '--runs',
      '1',
      ...exampleAgentFlags,
      '--output-dir',
      'out',
    ]);
    expect(result.stderr).not.toContain('internal error');
    const written = /written: (\S+triggers\.json)/.exec(result.stdout + result.stderr)?.[1] ?? '';
    const triggers = JSON.parse(await readFile(join(root, written), 'utf8'));
    // The greeting agent loads no skill: the eight queries that should trigger fail, the eight that should not pass.
    expect(triggers.results.map((row: { pass: boolean }) => row.pass)).toEqual([
      ...Array(8).fill(false),
      ...Array(8).fill(true),
    ]);
  });

  it('validates and imports them with validate and import', async () => {
    const validated = await runBinary(root, ['validate', 'superlint/eval.yaml']);
    expect(validated.stdout + validated.stderr).toContain("read as skillgrade's eval.yaml: 1 case");
    expect(validated.code).toBe(0);
    const imported = await runBinary(root, ['import', 'code-explainer/eval.yaml', '-o', 'code-explainer/evals.json']);
    expect(imported.stderr.split('\n')[0]).toBe("read as waza's eval spec: 4 cases");
    expect(imported.code).toBe(0);
  });
});
