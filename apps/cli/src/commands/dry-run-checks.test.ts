import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './__fixtures__/run-cli.js';

const example = join(repoRoot, 'examples/greeting');
const exampleAgent = `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`;
// Only Node's own folder: no agent CLI is on this PATH.
const env = { PATH: dirname(process.execPath) };
let root: string;
/** The flags of the command agent running `command`. */
const commandAgent = (command: string) => ['--agent', 'command', '--agent-command', command];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-dry-run-checks-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function skeval(args: string[]) {
  return runCli(root, args, { env });
}

/** Runs `skeval run … --dry-run` and the same without it, each into its own empty output folder. */
async function dryAndReal(name: string, args: string[]) {
  const dry = await skeval([
    'run',
    example,
    '--dry-run',
    '--sandbox',
    'none',
    '--output-dir',
    join(root, `${name}-dry`),
    ...args,
  ]);
  const real = await skeval(['run', example, '--sandbox', 'none', '--output-dir', join(root, `${name}-real`), ...args]);
  const written = await readdir(root);
  return { dry, real, written };
}

describe('--dry-run exits 2 on what would make every case of the run fail, and the run refuses before writing', () => {
  it('a judge with no key for the judged assertions', async () => {
    const { dry, real, written } = await dryAndReal('judge', [
      ...commandAgent(exampleAgent),
      '--judge',
      'anthropic:claude-sonnet-4-6',
    ]);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('the judge anthropic:claude-sonnet-4-6 has no key: set ANTHROPIC_API_KEY');
    expect(real.code).toBe(2);
    expect(real.stderr).toContain('has no key: set ANTHROPIC_API_KEY');
    expect(written).not.toContain('judge-real');
    expect(written).not.toContain('judge-dry');
  });

  it('the default agent, Claude Code, not installed', async () => {
    // acceptEdits: as root without a sandbox, Claude Code's permission check would speak first.
    const { dry, real, written } = await dryAndReal('claude', ['--permission-mode', 'acceptEdits']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('--agent claude-code: `claude` cannot be started');
    expect(dry.stderr).toContain('--agent command --agent-command');
    expect(real.code).toBe(2);
    expect(written).not.toContain('claude-real');
  });

  it('an agent binary given with --agent-bin that does not exist', async () => {
    const { dry, real } = await dryAndReal('agent-bin', ['--agent', 'codex', '--agent-bin', join(root, 'no-codex')]);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(`\`${join(root, 'no-codex')}\` cannot be started`);
    expect(real.code).toBe(2);
  });

  it('an --agent-command whose program does not exist', async () => {
    const { dry, real, written } = await dryAndReal(
      'command',
      commandAgent('greeting-agent-that-is-not-there {prompt_file}'),
    );
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('the program `greeting-agent-that-is-not-there` is not found on PATH');
    expect(real.code).toBe(2);
    expect(real.stderr).toContain('is not found on PATH');
    expect(written).not.toContain('command-real');
  });

  it('an --agent-command that needs a shell', async () => {
    const { dry, real } = await dryAndReal('pipe', commandAgent('node agent.mjs | tee log'));
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('`|` needs a shell');
    expect(real.code).toBe(2);
  });

  it('and passes a run it can start', async () => {
    const dry = await skeval(['run', example, '--dry-run', '--sandbox', 'none', ...commandAgent(exampleAgent)]);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toBe('');
  });
});
