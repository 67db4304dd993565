import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary, repoRoot } from './__fixtures__/run-cli.js';
import { bubblewrapWorks } from './__fixtures__/sandbox-support.js';

// `skeval doctor` through the built command line, on this machine: the sandbox, the allowlist
// probe, and the agent CLIs found on PATH (the installed ones) or missing (a PATH without them).

const agentBin = join(repoRoot, 'tools/agent-clis/installed/node_modules/.bin');
const skipReason = process.env.CI || bubblewrapWorks() ? undefined : '(skipped: bubblewrap does not work here)';
const basePath = (process.env.PATH ?? '').split(delimiter).filter((folder) => !folder.includes('agent-clis'));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-doctor-test-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function skeval(args: string[], path: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [binary, ...args], {
      cwd: root,
      env: { PATH: path.join(delimiter), HOME: root },
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.skipIf(skipReason !== undefined)(`skeval doctor ${skipReason ?? ''}`, () => {
  it('finds bubblewrap, an allowlist that holds, and each installed CLI starting in the sandbox', {
    timeout: 240_000,
  }, async () => {
    const ran = await skeval(['doctor', '--json', '--allow-host', 'pypi.org'], [agentBin, ...basePath]);
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout);
    expect(report.sandbox).toMatchObject({ kind: 'bwrap', capabilities: 'none' });
    expect(report.network.probe).toEqual({ model_reached: true, loopback_blocked: true });
    for (const agent of report.agents) {
      expect(agent).toMatchObject({ starts_in_sandbox: true, path: expect.stringContaining(agentBin) });
      expect(agent.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(agent.readable).toContain(join(repoRoot, 'tools/agent-clis/installed/node_modules'));
    }
    // What each may reach: its model endpoint as its settings give it (none here: the defaults), then the allowed host.
    const reaches = Object.fromEntries(
      report.agents.map((agent: { agent: string; reaches: string[] }) => [agent.agent, agent.reaches]),
    );
    expect(reaches).toEqual({
      'claude-code': ['https://api.anthropic.com', 'pypi.org'],
      codex: ['https://api.openai.com/v1', 'https://chatgpt.com', 'https://auth.openai.com', 'pypi.org'],
      pi: ['pypi.org'],
    });
  });

  it('names each CLI it cannot find with the way to install it, in text with a closing summary', {
    timeout: 240_000,
  }, async () => {
    const ran = await skeval(['doctor'], basePath);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(
      '- codex: not on PATH; install it (npm i -g @openai/codex) or pass --agent-bin to skeval run',
    );
    expect(ran.stdout.replaceAll('\n  ', ' ')).toMatch(
      /^✓ allowlist \(--network model\): a model endpoint on 127\.0\.0\.1 reached, another loopback port blocked and recorded/m,
    );
    expect(ran.stdout.trim().split('\n').at(-1)).toBe(
      `ok: sandbox bwrap, allowlist holds (${/forwarder (perl|socat|node)/.exec(ran.stdout)?.[1]}); 0/3 agent CLIs: claude-code missing, codex missing, pi missing`,
    );
  });

  it('run --dry-run prints the containment of the run it plans in one line', { timeout: 120_000 }, async () => {
    const skill = join(root, 'greet');
    await mkdir(join(skill, 'evals'), { recursive: true });
    await writeFile(join(skill, 'SKILL.md'), '---\nname: greet\ndescription: Greets.\n---\n');
    await writeFile(
      join(skill, 'evals', 'evals.json'),
      JSON.stringify({
        evals: [{ id: 1, prompt: 'Hi', assertions: [{ kind: 'output', method: 'contains', value: 'hi' }] }],
      }),
    );
    const ran = await skeval(
      ['run', skill, '--agent', 'command', '--agent-command', 'echo hi', '--dry-run', '--allow-host', 'pypi.org'],
      basePath,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.replaceAll('\n  ', ' ')).toMatch(
      /^containment: sandbox bwrap \(capabilities none, user namespace own\); network model through (perl|socat|node); agent command/m,
    );
  });
});
