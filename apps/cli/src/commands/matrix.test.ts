import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matrixBenchmarkSchema, matrixManifestSchema } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CliResult, repoRoot, runBinary } from './__fixtures__/run-cli.js';
import { comparable } from './__fixtures__/shard-fixture.js';

// The built binary in its own process per command, as users and CI run it.
vi.setConfig({ testTimeout: 60_000 });
const behaviours = ['follows', 'steady', 'contrary'] as const;
const agentCommandOf = (behaviour: string) => `node agents/greeting-agent.mjs {prompt_file} ${behaviour}`;
let root: string;
let whole: CliResult;
let wholeDir: string;
const separate: Record<string, { result: CliResult; dir: string }> = {};
let shards: CliResult[];
let merge: CliResult;

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

/** The one run folder a run wrote under `dir` (not `latest`). */
async function runDirIn(dir: string): Promise<string> {
  const entries = (await readdir(dir)).filter((entry) => entry !== 'latest' && entry !== 'latest.json');
  expect(entries).toHaveLength(1);
  return join(dir, entries[0] ?? '');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-matrix-'));
  for (const entry of ['greeting', 'agents', '.skeval', 'greeting-matrix.json'])
    await cp(join(repoRoot, 'examples', entry), join(root, entry), { recursive: true });
  const run = (args: string[]) => runBinary(root, ['run', 'greeting', '--compare', ...args]);
  [whole, shards] = await Promise.all([
    run(['--matrix', 'greeting-matrix.json', '--output-dir', 'whole']),
    Promise.all(
      [1, 2, 3].map((index) =>
        run(['--matrix', 'greeting-matrix.json', '--shard', `${index}/3`, '--output-dir', `shards/${index}`]),
      ),
    ),
  ]);
  await Promise.all(
    behaviours.map(async (behaviour) => {
      const result = await run([
        '--agent',
        'command',
        '--agent-command',
        agentCommandOf(behaviour),
        '--output-dir',
        `separate/${behaviour}`,
      ]);
      separate[behaviour] = { result, dir: await runDirIn(join(root, 'separate', behaviour, 'greeting')) };
    }),
  );
  merge = await runBinary(root, ['merge', 'shards', '-o', 'merged']);
  wholeDir = await runDirIn(join(root, 'whole', 'greeting'));
}, 240_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the greeting example run as a matrix of three scripted command agents', () => {
  it('writes one matrix run folder naming the three configurations, each an ordinary run folder', async () => {
    expect(whole.stderr).not.toMatch(/cannot start/);
    const manifest = matrixManifestSchema.parse(await readJson(join(wholeDir, 'matrix.json')));
    expect(manifest.configurations.map((entry) => [entry.name, entry.agent, entry.folder])).toEqual(
      behaviours.map((name) => [name, 'command', name]),
    );
    for (const name of behaviours) {
      const files = await readdir(join(wholeDir, name));
      expect(files).toEqual(expect.arrayContaining(['benchmark.json', 'summary.json', 'eval-1', 'eval-named-ada']));
    }
  });

  it.each(behaviours)(
    "writes %s's benchmark.json equal, case for case, to a separate run of that configuration",
    async (name) => {
      const alone = separate[name];
      if (!alone) throw new Error(`no separate run of ${name}`);
      const roots = [join(wholeDir, name), alone.dir];
      const inMatrix = comparable(await readJson(join(wholeDir, name, 'benchmark.json')), roots);
      const separately = comparable(await readJson(join(alone.dir, 'benchmark.json')), roots);
      expect(Reflect.get(inMatrix ?? {}, 'runs')).toHaveLength(8);
      expect(inMatrix).toEqual(separately);
    },
  );

  it('writes the matrix table: each arm, the Δ and its interval copied from each configuration, the hurt one named', async () => {
    const benchmark = matrixBenchmarkSchema.parse(await readJson(join(wholeDir, 'benchmark.json')));
    const { matrix } = benchmark.skeval;
    expect(matrix.configurations.map((row) => row.name)).toEqual([...behaviours]);
    for (const row of matrix.configurations) {
      const alone = await readJson(join(wholeDir, row.name, 'benchmark.json'));
      const skeval = Reflect.get(alone ?? {}, 'skeval');
      expect(row.pass_rate.with_skill).toBe(skeval.arms.with_skill.pass_rate_case_mean);
      expect(row.pass_rate.without_skill).toBe(skeval.arms.without_skill.pass_rate_case_mean);
      expect(row.delta?.ci95_pts).toEqual(skeval.delta.ci95.map((end: number) => Math.round(end * 1000) / 10));
      expect(row.cases.map((entry) => entry.eval_id).sort()).toEqual(['1', 'named-ada', 'no-emoji', 'unrelated']);
    }
    const delta = (name: string) => matrix.configurations.find((row) => row.name === name)?.delta?.pass_rate_pts ?? 0;
    expect(delta('follows')).toBeGreaterThan(0);
    expect(delta('contrary')).toBeLessThan(0);
    expect(matrix.worst_regression).toEqual({ name: 'contrary', delta_pts: delta('contrary') });
    // The unrelated case is a negative control: no configuration's skill moves it.
    for (const row of matrix.configurations)
      expect(row.cases.find((entry) => entry.eval_id === 'unrelated')?.delta_pts).toBe(0);
  });

  it('prints a compact matrix on stdout, one line per configuration, and names the worst regression', () => {
    const lines = whole.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^ {2}configuration +agent +model +with_skill +without_skill +Δ pts \[95% CI\]/);
    expect(lines.slice(2, 5).map((line) => line.trim().split(/ +/)[0])).toEqual([...behaviours]);
    expect(lines[4]).toMatch(/contrary +command .*−\d+\.\d \[/);
    expect(lines[5]).toMatch(/^ {2}worst regression: contrary \(−\d/);
  });

  it('exits with the code of its worst configuration, as the separate runs do', () => {
    const codes = behaviours.map((name) => separate[name]?.result.code ?? -1);
    expect(whole.code).toBe(Math.max(...codes.filter((code) => code !== 2)));
  });
});

describe('the matrix run as three shards, then merged', () => {
  it('gives each shard the same cases in every configuration', async () => {
    for (const [at, shard] of shards.entries()) {
      expect(shard.code, shard.stderr).not.toBe(2);
      const dir = await runDirIn(join(root, 'shards', String(at + 1), 'greeting'));
      const owned = await Promise.all(
        behaviours.map(async (name) => {
          const manifest = await readJson(join(dir, name, 'shard.json'));
          return JSON.stringify(Reflect.get(manifest ?? {}, 'cases').map((entry: { id: string }) => entry.id));
        }),
      );
      expect(new Set(owned).size).toBe(1);
    }
  });

  it("merges into a matrix equal to the whole run's: every configuration's benchmark.json and the table", async () => {
    expect(merge.code, merge.stderr).toBe(whole.code);
    expect(merge.stderr).toContain('merged 3 shards of the greeting matrix (3 configurations)');
    const mergedDir = join(root, 'merged');
    for (const name of behaviours) {
      const roots = [join(wholeDir, name), join(mergedDir, name)];
      const merged = comparable(await readJson(join(mergedDir, name, 'benchmark.json')), roots);
      expect(merged).toEqual(comparable(await readJson(join(wholeDir, name, 'benchmark.json')), roots));
    }
    const table = async (dir: string) => comparable(await readJson(join(dir, 'benchmark.json')), [wholeDir, mergedDir]);
    expect(await table(mergedDir)).toEqual(await table(wholeDir));
    expect(matrixManifestSchema.parse(await readJson(join(mergedDir, 'matrix.json'))).shard).toBeUndefined();
  });
});

describe('a configuration of a matrix run resumed', () => {
  it("finishes that configuration's folder and writes the matrix table again", async () => {
    const copy = join(root, 'resumed');
    await cp(wholeDir, copy, { recursive: true });
    const table = await readJson(join(copy, 'benchmark.json'));
    await rm(join(copy, 'contrary', 'eval-1'), { recursive: true });
    await writeFile(join(copy, 'benchmark.json'), '{}');
    const result = await runBinary(root, [
      'run',
      'greeting',
      '--compare',
      '--agent-command',
      agentCommandOf('contrary'),
      '--resume',
      join(copy, 'contrary'),
    ]);
    expect(result.stderr).not.toMatch(/cannot start/);
    const roots = [wholeDir, copy];
    expect(comparable(await readJson(join(copy, 'benchmark.json')), roots)).toEqual(comparable(table, roots));
  });
});

describe('a matrix that cannot run', () => {
  it('refuses a matrix file with a repeated name and a command agent without its command, at their lines', async () => {
    await writeFile(
      join(root, 'bad-matrix.yaml'),
      [
        '- name: one',
        '  agent: command',
        '  agentCommand: node a.mjs',
        '- name: One',
        '  agent: command',
        '- name: "../up"',
        '  agent: codex',
        '',
      ].join('\n'),
    );
    const result = await runBinary(root, ['run', 'greeting', '--matrix', 'bad-matrix.yaml', '--output-dir', 'bad']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'bad-matrix.yaml: [2].name (line 6, column 9): a configuration name is one folder name',
    );
    await writeFile(
      join(root, 'dup-matrix.yaml'),
      ['- name: one', '  agent: command', '  agentCommand: node a.mjs', '- name: One', '  agent: command', ''].join(
        '\n',
      ),
    );
    const duplicate = await runBinary(root, ['run', 'greeting', '--matrix', 'dup-matrix.yaml', '--output-dir', 'bad']);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain(
      'dup-matrix.yaml: [1].name (line 4, column 9): "One" is also the name of configuration 0',
    );
    expect(duplicate.stderr).toContain(
      'dup-matrix.yaml: [1].agent (line 5, column 10): agent "command" needs `agentCommand`',
    );
  });

  it("checks every configuration's agent before any case runs", async () => {
    await writeFile(
      join(root, 'missing-agent.json'),
      JSON.stringify([
        { name: 'fine', agent: 'command', agentCommand: agentCommandOf('follows') },
        { name: 'gone', agent: 'command', agentCommand: 'no-such-agent-program {prompt_file}' },
      ]),
    );
    const result = await runBinary(root, [
      'run',
      'greeting',
      '--matrix',
      'missing-agent.json',
      '--output-dir',
      'missing',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the matrix cannot start:\n {2}- gone: .*no-such-agent-program/);
    await expect(readdir(join(root, 'missing'))).rejects.toThrow(/ENOENT/);
  });

  it('shows the plan of each configuration with --dry-run and runs nothing', async () => {
    const result = await runBinary(root, [
      'run',
      'greeting',
      '--compare',
      '--matrix',
      'greeting-matrix.json',
      '--dry-run',
      '--output-dir',
      'dry',
    ]);
    expect(result.code, result.stderr).toBe(0);
    for (const name of behaviours)
      expect(result.stdout).toContain(`configuration ${name}:\n  greeting: 4 cases × 2 arms × 1 run = 8 agent runs`);
    await expect(readdir(join(root, 'dry'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses agent flags beside --matrix', async () => {
    const result = await runBinary(root, ['run', 'greeting', '--matrix', 'greeting-matrix.json', '--model', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--matrix names each configuration's agent and model: drop --model");
  });
});

describe("a config file's matrix", () => {
  it('runs the matrix its config file names, with agent commands read from its folder', async () => {
    await cp(join(root, 'greeting'), join(root, 'configured', 'greeting'), { recursive: true });
    const matrix = ['follows', 'contrary'].map((name) => ({
      name,
      agent: 'command',
      agentCommand: `node ../agents/greeting-agent.mjs {prompt_file} ${name}`,
    }));
    await writeFile(join(root, 'configured', 'skeval.config.json'), JSON.stringify({ matrix, sandbox: 'none' }));
    const result = await runBinary(root, [
      'run',
      'configured/greeting',
      '--compare',
      '--output-dir',
      'configured-runs',
    ]);
    expect(result.stderr).not.toMatch(/cannot start/);
    const dir = await runDirIn(join(root, 'configured-runs', 'greeting'));
    const manifest = matrixManifestSchema.parse(await readJson(join(dir, 'matrix.json')));
    expect(manifest.configurations.map((entry) => entry.name)).toEqual(['follows', 'contrary']);
    // An agent flag on the command line runs that one agent: flags beat the config file.
    const single = await runBinary(root, [
      'run',
      'configured/greeting',
      '--agent-command',
      agentCommandOf('steady'),
      '--output-dir',
      'configured-single',
    ]);
    expect(single.stderr).not.toMatch(/cannot start/);
    const files = await readdir(await runDirIn(join(root, 'configured-single', 'greeting')));
    expect(files).toContain('summary.json');
    expect(files).not.toContain('matrix.json');
  });

  it('refuses a config matrix with a repeated name, naming the file', async () => {
    const entry = { name: 'same', agent: 'command', agentCommand: 'node a.mjs' };
    await cp(join(root, 'greeting'), join(root, 'twice', 'greeting'), { recursive: true });
    await writeFile(join(root, 'twice', 'skeval.config.json'), JSON.stringify({ matrix: [entry, entry] }));
    const result = await runBinary(root, ['run', 'twice/greeting']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${join(root, 'twice', 'skeval.config.json')}: matrix[1].name: "same" is also the name of configuration 0`,
    );
  });
});

describe('--agent and --model repeated', () => {
  it('run as a matrix of every agent with every model, each configuration named by them', async () => {
    const args = ['run', 'greeting', '--agent', 'command', '--agent-command', agentCommandOf('follows')];
    const result = await runBinary(root, [
      ...args,
      '--model',
      'small',
      '--model',
      'large/v2',
      '--output-dir',
      'shorthand',
    ]);
    expect(result.stderr).not.toMatch(/cannot start/);
    const dir = await runDirIn(join(root, 'shorthand', 'greeting'));
    const manifest = matrixManifestSchema.parse(await readJson(join(dir, 'matrix.json')));
    expect(manifest.configurations.map((entry) => [entry.name, entry.agent, entry.model])).toEqual([
      ['command-small', 'command', 'small'],
      ['command-large-v2', 'command', 'large/v2'],
    ]);
    expect(result.stdout).toMatch(/\n {2}command-small +command +small +\d/);
  });

  it('refuses one --agent-bin for several agents', async () => {
    const result = await runBinary(root, [
      'run',
      'greeting',
      '--agent',
      'codex',
      '--agent',
      'pi',
      '--agent-bin',
      './x',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--agent-bin names one agent's executable, and --agent is given 2 times");
  });
});

describe('skeval compare of two matrix runs', () => {
  it('compares each configuration by name with its own run of the other matrix', async () => {
    const result = await runBinary(root, ['compare', wholeDir, join(root, 'merged'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.configurations.map((entry: { name: string }) => entry.name)).toEqual([...behaviours]);
    for (const entry of parsed.configurations) expect(entry.change.pass_rate).toBe(0);
  });

  it("refuses a matrix run against one configuration's run, naming the folder to give", async () => {
    const result = await runBinary(root, ['compare', wholeDir, separate.follows?.dir ?? '']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`a matrix run (follows, steady, contrary)`);
  });
});
