import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGreetingSkill } from './__fixtures__/greeting-skill.js';
import { runCli } from './__fixtures__/run-cli.js';

// skeval.config.* through the command line: where it is found, what wins, how a bad one is
// reported, per-skill settings, and what summary.json records.

let root: string;

const agentSource = `
import { readFileSync, writeFileSync } from 'node:fs';
const prompt = readFileSync(process.argv[2], 'utf8');
const delay = Number(/sleep (\\d+)/.exec(prompt)?.[1] ?? 0);
setTimeout(() => {
  writeFileSync('greeting.txt', 'Hello\\n');
  process.stdout.write('done\\n');
}, delay);
`;

async function write(path: string, text: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

/** A skill at `dir` (under the root) named after its last folder, one greeting case per prompt. */
function makeSkill(dir: string, prompts: string[] = ['Greet']) {
  return writeGreetingSkill(join(root, dirname(dir)), basename(dir), prompts);
}

function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runCli(options.cwd ?? root, args, { env: { PATH: process.env.PATH, ...options.env } });
}

/** The summary.json of the one run folder under `base`. */
async function summaryIn(base: string) {
  const [runId] = (await readdir(join(root, base))).filter((entry) => !entry.startsWith('latest'));
  return JSON.parse(await readFile(join(root, base, runId ?? '', 'summary.json'), 'utf8'));
}

const projectConfig = {
  $schema: '../node_modules/@skeval/schema/json-schema/skeval-config.schema.json',
  agentCommand: 'node agent.mjs {prompt_file}',
  sandbox: 'none',
  concurrency: 2,
  outputDir: 'runs',
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-config-'));
  await write('project/agent.mjs', agentSource);
  await write('project/skeval.config.json', `${JSON.stringify(projectConfig, null, 2)}\n`);
  await makeSkill('project/skills/greet');
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('finding the config file', () => {
  it('reads the nearest skeval.config.json above the skill, with paths relative to it, and records it in summary.json', async () => {
    const result = await cli(['run', 'project/skills/greet']);
    expect(result.code, result.stderr).toBe(0);
    const summary = await summaryIn('project/runs/greet');
    expect(summary.config).toEqual({
      file: join(root, 'project/skeval.config.json'),
      containment_weakened: [{ setting: 'sandbox', value: 'none', file: join(root, 'project/skeval.config.json') }],
      values: {
        agent: 'command',
        agent_command: 'node agent.mjs {prompt_file}',
        agent_bin: null,
        model: null,
        permission_mode: null,
        judge: null,
        judge_timeout: null,
        judge_retries: null,
        judge_samples: null,
        judge_templates: null,
        judge_escalate: null,
        concurrency: 2,
        timeout: 600,
        sandbox: 'none',
        network: 'model',
        allow_host: [],
        sandbox_mount: [],
        pass_env: [],
        reporters: null,
        min_pass_rate: null,
        min_delta: null,
        max_errors: null,
        max_cost_usd: null,
        output_dir: join(root, 'project/runs'),
        cache: true,
        context_mode: 'isolated',
        runs: 1,
      },
      from: {
        agent: 'default',
        agent_command: 'file',
        agent_bin: 'default',
        model: 'default',
        permission_mode: 'default',
        judge: 'default',
        judge_timeout: 'default',
        judge_retries: 'default',
        judge_samples: 'default',
        judge_templates: 'default',
        judge_escalate: 'default',
        concurrency: 'file',
        timeout: 'default',
        sandbox: 'file',
        network: 'default',
        allow_host: 'default',
        sandbox_mount: 'default',
        pass_env: 'default',
        reporters: 'default',
        min_pass_rate: 'default',
        min_delta: 'default',
        max_errors: 'default',
        max_cost_usd: 'default',
        output_dir: 'file',
        cache: 'default',
        context_mode: 'default',
        runs: 'default',
      },
    });
  });

  it('lets a flag win over the file, and the file over the default', async () => {
    const result = await cli([
      'run',
      'project/skills/greet',
      '--concurrency',
      '1',
      '--output-dir',
      'flagged',
      '--timeout',
      '30',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { config } = await summaryIn('flagged/greet');
    expect(config.values).toMatchObject({ concurrency: 1, timeout: 30, sandbox: 'none', network: 'model' });
    expect(config.from).toMatchObject({ concurrency: 'flag', timeout: 'flag', sandbox: 'file', network: 'default' });
    expect(config.values.output_dir).toBe('flagged');
  });

  it('falls back to the current folder when nothing above the skill has one', async () => {
    await makeSkill('outside/lone');
    await write('work/agent.mjs', agentSource);
    await write(
      'work/skeval.config.json',
      JSON.stringify({ agentCommand: 'node agent.mjs {prompt_file}', sandbox: 'none' }),
    );
    const result = await cli(['run', '../outside/lone', '--output-dir', 'out'], { cwd: join(root, 'work') });
    expect(result.code, result.stderr).toBe(0);
    expect((await summaryIn('work/out/lone')).config.file).toBe(join(root, 'work/skeval.config.json'));
  });

  it('reads the file --config names instead', async () => {
    await write(
      'elsewhere/custom.json',
      JSON.stringify({
        ...projectConfig,
        agentCommand: 'node ../project/agent.mjs {prompt_file}',
        outputDir: 'custom-runs',
      }),
    );
    const result = await cli(['run', 'project/skills/greet', '--config', 'elsewhere/custom.json']);
    expect(result.code, result.stderr).toBe(0);
    expect((await summaryIn('elsewhere/custom-runs/greet')).config.file).toBe(join(root, 'elsewhere/custom.json'));
  });

  it('refuses two config files in one folder', async () => {
    await makeSkill('twice/skill');
    await write('twice/skeval.config.json', '{}');
    await write('twice/skeval.config.mjs', 'export default {};');
    const result = await cli(['run', 'twice/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `skeval: ${join(root, 'twice')} holds 2 config files (skeval.config.mjs, skeval.config.json); keep one, or choose one with --config <file>\n`,
    );
  });

  it('refuses a --config of another kind of file', async () => {
    await write('config.yaml', 'agent: command\n');
    const result = await cli(['run', 'project/skills/greet', '--config', 'config.yaml']);
    expect(result).toMatchObject({
      code: 2,
      stderr: 'skeval: config.yaml: a config file is .ts, .mts, .mjs, .js or .json (skeval.config.json, for example)\n',
    });
  });
});

describe('a config file with mistakes', () => {
  it('locates every problem of a JSON config at its line and column, with the fix', async () => {
    await makeSkill('bad-json/skill');
    await write(
      'bad-json/skeval.config.json',
      [
        '{',
        '  "agentCommand": "node agent.mjs {prompt_file}",',
        '  "concurrency": "four",',
        '  "concurency": 2,',
        '  "gates": { "minPassRate": 80 }',
        '}',
        '',
      ].join('\n'),
    );
    const result = await cli(['run', 'bad-json/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        'skeval: bad-json/skeval.config.json:3:18: error: concurrency: expected the case runs at a time, a whole number above 0, got the string "four"; for example "concurrency": 4',
        'bad-json/skeval.config.json:4:3: error: concurency: unknown key `concurency` (did you mean `concurrency`?); the keys are agent, agentCommand, agentBin, model, permissionMode, judge, judgeTimeout, judgeRetries, judgeSamples, judgeTemplates, judgeEscalate, concurrency, timeout, sandbox, network, allowHosts, passEnv, reporters, gates, maxCostUsd, outputDir, cache, contextMode, runs, matrix, skills (docs/config.md)',
        `bad-json/skeval.config.json:5:29: error: gates.minPassRate: expected the with_skill arm's lowest pass rate, from 0 to 1, got 80; for example "minPassRate": 0.8`,
        '',
      ].join('\n'),
    );
    expect(await readdir(join(root, 'bad-json/skill'))).not.toContain('evals-runs');
  });

  it('locates a JSON syntax error', async () => {
    await makeSkill('comma/skill');
    await write('comma/skeval.config.json', '{\n  "concurrency": 2,\n}\n');
    const result = await cli(['run', 'comma/skill']);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'skeval: comma/skeval.config.json:2:19: error: trailing comma before `}`; JSON does not allow it: remove the comma\n',
    });
  });

  it('loads a TypeScript config without a build step and names each bad value by its key', async () => {
    await makeSkill('bad-ts/skill');
    await write(
      'bad-ts/skeval.config.ts',
      [
        "import { defineConfig } from '@skeval/core';",
        '',
        'const seconds: number = 30;',
        '',
        'export default defineConfig({',
        "  agent: 'claude' as 'claude-code',",
        '  timeout: seconds,',
        "  reporters: ['junit:', 'html'],",
        "  skills: { skill: { agent: 'codex' } } as never,",
        '});',
        '',
      ].join('\n'),
    );
    const result = await cli(['run', 'bad-ts/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        'skeval: bad-ts/skeval.config.ts: error: agent: expected one of sdk, claude-code, codex, pi, command, got the string "claude"; for example agent: "command"',
        'bad-ts/skeval.config.ts: error: skills.skill.agent: `agent` cannot be set for one skill: one agent, judge and sandbox serve a whole run, so only timeout and gates can differ by skill; set `agent` at the top level, or run this skill with a config of its own (--config <file>)',
        '',
      ].join('\n'),
    );
  });

  it('checks reporter names once the values have the right types', async () => {
    await makeSkill('bad-reporter/skill');
    await write('bad-reporter/skeval.config.mjs', "export default { reporters: ['junit:', 'html'] };\n");
    const result = await cli(['run', 'bad-reporter/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        'skeval: bad-reporter/skeval.config.mjs: error: reporters[0]: "junit:" needs a file after the colon, as junit:report.out; for example reporters: ["terminal", "junit:reports/junit.xml"]',
        'bad-reporter/skeval.config.mjs: error: reporters[1]: unknown reporter "html"; the reporters are terminal, json, junit, github, markdown; for example reporters: ["terminal", "junit:reports/junit.xml"]',
        '',
      ].join('\n'),
    );
  });

  it('locates a TypeScript syntax error', async () => {
    await makeSkill('syntax-ts/skill');
    await write('syntax-ts/skeval.config.ts', 'export default {\n  concurrency: 2,,\n};\n');
    const result = await cli(['run', 'syntax-ts/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^skeval: cannot compile the config file .*syntax-ts\/skeval\.config\.ts: .*skeval\.config\.ts:2:17: /,
    );
  });

  it('says what to export when a config has no default export', async () => {
    await makeSkill('no-default/skill');
    await write('no-default/skeval.config.mjs', 'export const concurrency = 2;\n');
    const result = await cli(['run', 'no-default/skill']);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'skeval: no-default/skeval.config.mjs: error: the file has no default export; write export default defineConfig({ … })\n',
    });
  });
});

describe('a TypeScript config', () => {
  it('runs with what it sets, its own imports included', async () => {
    await makeSkill('ts-project/skill');
    await write('ts-project/agent.mjs', agentSource);
    await write('ts-project/shared.ts', "export const agentCommand: string = 'node agent.mjs {prompt_file}';\n");
    await write(
      'ts-project/skeval.config.ts',
      [
        "import { defineConfig, type SkevalConfig } from '@skeval/core';",
        "import { agentCommand } from './shared.ts';",
        '',
        "const base: SkevalConfig = { sandbox: 'none', outputDir: 'ts-runs' };",
        '',
        'export default defineConfig({ ...base, agentCommand, runs: 2 });',
        '',
      ].join('\n'),
    );
    const result = await cli(['run', 'ts-project/skill']);
    expect(result.code, result.stderr).toBe(0);
    const { config } = await summaryIn('ts-project/ts-runs/skill');
    expect(config.file).toBe(join(root, 'ts-project/skeval.config.ts'));
    expect(config.values).toMatchObject({ agent_command: 'node agent.mjs {prompt_file}', runs: 2, sandbox: 'none' });
    expect(config.from).toMatchObject({ agent_command: 'file', runs: 'file' });
  });
});

describe('per-skill settings', () => {
  it("gives each skill its own timeout and gates, and records them in that skill's summary.json", async () => {
    await makeSkill('tree/skills/quick');
    await makeSkill('tree/skills/slow', ['Greet after sleep 3000']);
    await write('tree/agent.mjs', agentSource);
    await write(
      'tree/skeval.config.json',
      JSON.stringify({
        agentCommand: 'node agent.mjs {prompt_file}',
        sandbox: 'none',
        outputDir: 'runs',
        timeout: 30,
        skills: { slow: { timeout: 0.5, gates: { maxErrors: 1 } }, missing: { timeout: 1 } },
      }),
    );
    const result = await cli(['run', 'tree']);
    // slow timed out: one agent error, which its own gate allows.
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'skeval: gate max-errors passed: slow: 1 error (1 agent error, 0 errored assertions), within the maximum of 1\n',
    );
    expect(result.stderr).toContain(
      `skeval: note: skills.missing in ${join(root, 'tree/skeval.config.json')} names no skill below ${join(root, 'tree')}; its settings apply to nothing\n`,
    );
    const slow = await summaryIn('tree/runs/slow');
    expect(slow.cases[0]).toMatchObject({ status: 'timeout' });
    expect(slow.config.values).toMatchObject({ timeout: 0.5, max_errors: 1 });
    expect(slow.config.from).toMatchObject({ timeout: 'skill', max_errors: 'skill' });
    const quick = await summaryIn('tree/runs/quick');
    expect(quick.cases[0]).toMatchObject({ status: 'ok' });
    expect(quick.config.values).toMatchObject({ timeout: 30, max_errors: null });
    expect(quick.config.from).toMatchObject({ timeout: 'file', max_errors: 'default' });
  });
});

describe('what summary.json records', () => {
  it('keeps secrets out: variable names only, and the agent command redacted', async () => {
    const secret = 'sk-test-0123456789abcdefghijklmnop';
    await makeSkill('secret/skill');
    await write('secret/agent.mjs', agentSource);
    await write(
      'secret/skeval.config.json',
      JSON.stringify({
        agentCommand: `node agent.mjs {prompt_file} ${secret}`,
        sandbox: 'none',
        passEnv: ['MY_API_KEY'],
        outputDir: 'runs',
      }),
    );
    const result = await cli(['run', 'secret/skill'], { env: { MY_API_KEY: secret } });
    expect(result.code, result.stderr).toBe(0);
    const [runId] = (await readdir(join(root, 'secret/runs/skill'))).filter((entry) => !entry.startsWith('latest'));
    const text = await readFile(join(root, 'secret/runs/skill', runId ?? '', 'summary.json'), 'utf8');
    expect(text).not.toContain(secret);
    const { config } = JSON.parse(text);
    expect(config.values.agent_command).toBe('node agent.mjs {prompt_file} [redacted:MY_API_KEY]');
    expect(config.values.pass_env).toEqual(['MY_API_KEY']);
  });

  it('writes the reporters the file names, their files relative to it', async () => {
    await makeSkill('reported/skill');
    await write('reported/agent.mjs', agentSource);
    await write(
      'reported/skeval.config.json',
      JSON.stringify({
        agentCommand: 'node agent.mjs {prompt_file}',
        sandbox: 'none',
        outputDir: 'runs',
        reporters: ['terminal', 'junit:reports/junit.xml'],
      }),
    );
    const result = await cli(['run', 'reported/skill']);
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(root, 'reported/reports/junit.xml'), 'utf8')).toContain('<testsuites');
    expect((await summaryIn('reported/runs/skill')).config.values.reporters).toEqual([
      'terminal',
      `junit:${join(root, 'reported/reports/junit.xml')}`,
    ]);
  });

  it('keeps the recorded config when the run is re-graded', async () => {
    const [runId] = (await readdir(join(root, 'project/runs/greet'))).filter((entry) => !entry.startsWith('latest'));
    const runDir = join(root, 'project/runs/greet', runId ?? '');
    const before = JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')).config;
    const result = await cli(['grade', runDir, '--in-place']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(runDir, 'summary.json'), 'utf8')).config).toEqual(before);
  });
});

describe('the judge of a config file', () => {
  it('is a usage error when it cannot be built, as --judge is', async () => {
    await makeSkill('judged/skill');
    await write('judged/skeval.config.json', JSON.stringify({ judge: 'nosuch:model', agentCommand: 'node x.mjs' }));
    const result = await cli(['run', 'judged/skill']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^skeval: .*nosuch/m);
  });
});
