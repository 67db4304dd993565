import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleAgentFlags, repoRoot, runCli } from './__fixtures__/run-cli.js';

const realWorld = join(repoRoot, 'packages/evals/src/__fixtures__/real-world');
const agent = exampleAgentFlags;
let root: string;

function skeval(args: string[]) {
  return runCli(root, args);
}

async function gradings(dir: string): Promise<Array<{ case_id: string; rows: string[] }>> {
  const [runId] = await readdir(dir);
  const found = [];
  for (const entry of (await readdir(join(dir, runId ?? ''))).filter((name) => name.startsWith('eval-')).sort()) {
    const grading = JSON.parse(await readFile(join(dir, runId ?? '', entry, 'grading.json'), 'utf8'));
    found.push({
      case_id: grading.case_id,
      rows: grading.assertion_results.map(
        (row: { status: string; text: string }) => `${row.status} ${row.text.slice(0, 40)}`,
      ),
    });
  }
  return found;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-import-'));
  await cp(join(realWorld, 'promptfoo-ydb'), join(root, 'ydb'), { recursive: true });
  await cp(join(realWorld, 'agentv-csv'), join(root, 'csv'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval import', () => {
  it("writes a promptfoo config's evals.json, listing each mapping and each loss", async () => {
    const result = await skeval(['import', 'ydb/promptfooconfig.yaml', '-o', 'ydb/skills/ydb-search/evals/evals.json']);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')).toEqual([
      "read as promptfoo's config: 1 case",
      'mapped: defaultTest.assert[0]: `not-contains` → output/not-contains',
      'mapped: tests/ydb-search/fulltext-ranking.yaml.assert[0]: `llm-rubric` → a judged claim',
      "not imported: defaultTest.vars `ydb_search`, `ydb_search_refs_vector` read files into promptfoo's prompts; not imported: Skeval installs the skill where the agent looks for it",
      "not imported: `providers` is promptfoo's own (which models to call, how): Skeval runs the agent `skeval run` is given",
      "not imported: `evaluateOptions` is promptfoo's own (which models to call, how): Skeval runs the agent `skeval run` is given",
      'wrote ydb/skills/ydb-search/evals/evals.json (1 case)',
      '',
    ]);
    expect((await skeval(['validate', 'ydb/skills/ydb-search/evals/evals.json'])).code).toBe(0);
    await skeval(['run', 'ydb/skills/ydb-search', ...agent, '--output-dir', 'out-ydb']);
    expect(await gradings(join(root, 'out-ydb/ydb-search'))).toEqual([
      {
        case_id: '1',
        rows: ['pass output-not-contains value=[provider erro', 'skipped Require fulltext_relevance for BM25 and '],
      },
    ]);
  });

  it("writes an agentv file's evals.json, its files relative to the skill, and runs it with the example agent", async () => {
    const result = await skeval(['import', 'csv/csv-analyzer.EVAL.yaml', '-o', 'csv/evals/evals.json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'not imported: tests[1].assertions[0]: `skill-trigger` with `should_trigger: false` (the skill must not load) has no case assertion in Skeval',
    );
    const written = JSON.parse(await readFile(join(root, 'csv/evals/evals.json'), 'utf8'));
    expect(written.evals[0]).toMatchObject({
      id: 'csv-top-months',
      files: ['evals/files/sales.csv'],
      skill: 'csv-analyzer',
    });
    expect((await skeval(['validate', 'csv/evals/evals.json'])).code).toBe(0);
    const run = await skeval(['run', 'csv', ...agent, '--output-dir', 'out-csv']);
    expect(run.stdout + run.stderr).not.toMatch(/error:/);
    expect(await gradings(join(root, 'out-csv/csv-analyzer'))).toEqual([
      {
        case_id: 'csv-top-months',
        rows: [
          'skipped Agent finds the top 3 months by revenue',
          'fail behavior-skill-read skill=csv-analyzer',
          'skipped Output identifies November as the highes',
          'fail output-contains value=$22,500',
        ],
      },
      { case_id: 'irrelevant-query', rows: [] },
    ]);
  });

  it('refuses to overwrite a file, and names a file that is neither tool’s', async () => {
    const again = await skeval(['import', 'csv/csv-analyzer.EVAL.yaml', '-o', 'csv/evals/evals.json']);
    expect([again.code, again.stderr.trim()]).toEqual([
      2,
      'skeval: csv/evals/evals.json exists; give --force to replace it, or another -o',
    ]);
    const neither = await skeval(['import', 'ydb/tests/ydb-search/fulltext-ranking.yaml']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(
      /^skeval: ydb\/tests\/ydb-search\/fulltext-ranking\.yaml: fulltext-ranking\.yaml is neither a promptfoo config/,
    );
    const notYaml = await skeval(['import', 'ydb/skills/ydb-search/SKILL.md']);
    expect(notYaml.code).toBe(2);
    expect(notYaml.stderr).toMatch(/SKILL\.md is not YAML: /);
  });
});

describe("other tools' files beside SKILL.md, read in place", () => {
  let tree: string;
  beforeAll(async () => {
    tree = await mkdtemp(join(tmpdir(), 'skeval-in-place-'));
    await cp(join(realWorld, 'promptfoo-ydb'), join(tree, 'ydb'), { recursive: true });
    await cp(join(realWorld, 'agentv-csv'), join(tree, 'csv'), { recursive: true });
    // A waza eval spec and cases.yaml lists: beside SKILL.md, for a skill named in the file, a case's own skill.
    await cp(join(realWorld, 'waza-code-explainer'), join(tree, 'explainer'), { recursive: true });
    await cp(join(realWorld, 'cases-readable-writing'), join(tree, 'writing'), { recursive: true });
    await cp(join(realWorld, 'cases-align'), join(tree, 'align'), { recursive: true });
    await cp(join(realWorld, 'cases-clear-eyed'), join(tree, 'reading'), { recursive: true });
    // ToolUniverse's file for several skills, and a skill with trigger queries only.
    const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;
    for (const name of [
      'tooluniverse-organic-chemistry',
      'tooluniverse-computational-biophysics',
      'tooluniverse-drug-drug-interaction',
    ]) {
      await mkdir(join(tree, 'tu/skills', name), { recursive: true });
      await writeFile(join(tree, 'tu/skills', name, 'SKILL.md'), skill(name));
    }
    await mkdir(join(tree, 'tu/skills/evals'), { recursive: true });
    await cp(join(realWorld, 'multi-skill.tooluniverse.evals.json'), join(tree, 'tu/skills/evals/evals.json'));
    await mkdir(join(tree, 'deck/evals'), { recursive: true });
    await writeFile(join(tree, 'deck/SKILL.md'), skill('deck-maker'));
    await writeFile(
      join(tree, 'deck/evals/trigger-evals.json'),
      JSON.stringify({ queries: [{ query: 'make slides from my notes', expected: true }] }),
    );
  });
  afterAll(() => rm(tree, { recursive: true, force: true }));

  it('finds a skill for each and shows with --dry-run what each would run', async () => {
    const { code, stdout, stderr } = await runCli(tree, ['run', '.', '--dry-run', ...agent]);
    expect(code).toBe(0);
    // The plan wraps at 80 columns; each skill's line is read whole.
    const plan = stdout.replace(/\s+/g, ' ');
    for (const line of [
      'csv-analyzer: 2 cases × 1 arm × 1 run = 2 agent runs; 0 judge calls',
      'ydb-search: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'tooluniverse-computational-biophysics: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'tooluniverse-drug-drug-interaction: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'tooluniverse-organic-chemistry: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'code-explainer: 4 cases × 1 arm × 1 run = 4 agent runs; 0 judge calls',
      'readable-human-writing: 14 cases × 1 arm × 1 run = 14 agent runs; 0 judge calls',
      'align-before-action: 3 cases × 1 arm × 1 run = 3 agent runs; 0 judge calls',
      'clear-eyed-reading: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'clear-eyed-deep-reading: 1 case × 1 arm × 1 run = 1 agent run; 0 judge calls',
      'in all: 29 agent runs, 0 judge calls',
      'deck-maker (deck) has trigger queries only (deck/evals/trigger-evals.json) and no evals.json: `skeval run` has no case of it to run; run them with `skeval triggers deck`',
    ])
      expect(plan).toContain(line);
    expect(stderr).toBe('');
  });

  it('validates a skill whose only evals are a waza spec or a cases.yaml list', async () => {
    for (const [folder, file] of [
      ['explainer', 'eval.yaml'],
      ['writing', 'evals/cases.yaml'],
    ] as const) {
      const { code, stdout } = await runCli(tree, ['validate', folder]);
      expect(code).toBe(0);
      expect(stdout).toContain(`${folder}/${file}`);
    }
  });
});
