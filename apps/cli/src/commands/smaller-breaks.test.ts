import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { binary, runBinary } from './__fixtures__/run-cli.js';

// The smaller breaks a hostile suite found, each through the built binary.
vi.setConfig({ testTimeout: 60_000 });
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-smaller-'));
  await mkdir(join(root, '.git'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A skill `name` in the project with these cases; its agent runs `agent` (a module's source). */
async function skill(name: string, cases: unknown[], agent: string): Promise<string[]> {
  await mkdir(join(root, name, 'evals'), { recursive: true });
  await writeFile(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: a skill\n---\nDo it.\n`);
  await writeFile(join(root, name, 'evals', 'evals.json'), JSON.stringify({ skill_name: name, evals: cases }));
  await writeFile(join(root, `${name}-agent.mjs`), agent);
  return ['--agent', 'command', '--agent-command', `node ${join(root, `${name}-agent.mjs`)} {prompt_file}`];
}

const gradingOf = async (outputDir: string, name: string, folder: string) => {
  const runs = join(outputDir, name);
  const [runId] = (await readdir(runs)).filter((entry) => !entry.startsWith('latest'));
  return JSON.parse(await readFile(join(runs, runId ?? '', folder, 'grading.json'), 'utf8'));
};

const answer = "process.stdout.write('done');\n";

describe('case ids that meet', () => {
  const cases = [{ prompt: 'first' }, { id: 1, prompt: 'second' }, { id: 'case-1', prompt: 'third' }].map((entry) => ({
    ...entry,
    assertions: [{ kind: 'output', method: 'contains', value: 'done' }],
  }));

  it('are an error in validate, naming every case involved', async () => {
    await skill('ids', cases, answer);
    const result = await runBinary(root, ['validate', 'ids']);
    expect(result.code, result.stdout + result.stderr).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain('the names it would take are taken: `1` by evals[1] and `case-1` by evals[2]');
  });

  it('refuse the run, which writes no case folder', async () => {
    const agent = await skill('ids', cases, answer);
    const outputDir = join(root, 'ids-runs');
    const result = await runBinary(root, ['run', 'ids', ...agent, '--output-dir', outputDir]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      'evals[0]: case has no `id`, and the names it would take are taken: `1` by evals[1] and `case-1` by evals[2]',
    );
    expect(existsSync(join(outputDir, 'ids'))).toBe(false);
  });
});

describe('a budget', () => {
  it('is an error, not a pass, when the agent reports a token count that is no count', async () => {
    const agent = await skill(
      'budget',
      [
        {
          id: 'b1',
          prompt: 'answer',
          assertions: [
            { id: 'tokens', kind: 'behavior', method: 'budget', maxTokens: 1000 },
            { id: 'calls', kind: 'behavior', method: 'budget', maxToolCalls: 5 },
          ],
        },
      ],
      [
        "process.stdout.write(JSON.stringify({ type: 'usage', input_tokens: 'lots', output_tokens: 3 }) + '\\n');",
        "process.stdout.write(JSON.stringify({ type: 'final', text: 'done' }) + '\\n');",
      ].join('\n'),
    );
    const outputDir = join(root, 'budget-runs');
    const result = await runBinary(root, ['run', 'budget', ...agent, '--output-dir', outputDir]);
    expect(result.code, result.stderr).toBe(3);
    const grading = await gradingOf(outputDir, 'budget', 'eval-b1');
    expect(grading.assertion_results.map((row: { status: string }) => row.status)).toEqual(['error', 'error']);
    expect(grading.assertion_results[0].evidence).toContain('input_tokens: "lots"');
  });
});

describe('no-secrets', () => {
  it('fails a workspace file that links to a key file outside the workspace (--sandbox none)', async () => {
    const keyFile = join(root, 'outside-key.txt');
    await writeFile(keyFile, `ANTHROPIC_API_KEY=sk-ant-${'a1B2'.repeat(10)}\n`);
    const agent = await skill(
      'leak',
      [{ id: 'l1', prompt: 'answer', assertions: [{ id: 'no-leak', kind: 'safety', method: 'no-secrets' }] }],
      `import { symlinkSync } from 'node:fs';\nsymlinkSync(${JSON.stringify(keyFile)}, 'notes.txt');\n${answer}`,
    );
    const outputDir = join(root, 'leak-runs');
    const result = await runBinary(root, ['run', 'leak', ...agent, '--output-dir', outputDir, '--sandbox', 'none']);
    expect(result.code, result.stderr).toBe(1);
    const [row] = (await gradingOf(outputDir, 'leak', 'eval-l1')).assertion_results;
    expect(row.status).toBe('fail');
    expect(row.evidence).toContain(`appears in notes.txt, a link to ${keyFile} outside the workspace`);
    expect(row.evidence).not.toContain('a1B2a1B2');
  });
});

describe('numeric flags', () => {
  it.each(['0x10', '1e3', 'Infinity', '0b1'])('refuse %s for --max-cost-usd, as a usage error', async (value) => {
    const result = await runBinary(root, ['run', '.', '--max-cost-usd', value, '--dry-run']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`expected a number above 0, got ${value}`);
  });
});

describe('stdout closed early', () => {
  it('ends help quietly with exit 0, as other command lines do', async () => {
    const child = spawn(process.execPath, [binary, 'triggers', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the first byte is written: every write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('a link loop in a skill folder', () => {
  it('is a located warning and left out of the copy, never a setup failure', async () => {
    const agent = await skill(
      'loop',
      [{ id: 'o1', prompt: 'answer', assertions: [{ kind: 'output', method: 'contains', value: 'done' }] }],
      answer,
    );
    await symlink('.', join(root, 'loop', 'self'));
    await mkdir(join(root, 'loop', 'docs'));
    await symlink('..', join(root, 'loop', 'docs', 'up'));
    const outputDir = join(root, 'loop-runs');
    const result = await runBinary(root, ['run', 'loop', ...agent, '--output-dir', outputDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${join(root, 'loop', 'self')}: a link to ., a folder that holds it (a loop)`);
    expect(result.stderr).toContain(
      `${join(root, 'loop', 'docs', 'up')}: a link to ., a folder that holds it (a loop)`,
    );
    expect((await gradingOf(outputDir, 'loop', 'eval-o1')).summary.passed).toBe(1);
  });
});

describe('custom graders', () => {
  it('are found from the skill folder up, not from the folder the run starts in', async () => {
    const grader = (passed: boolean) =>
      `process.stdout.write(JSON.stringify({ score: ${passed ? 1 : 0}, assertions: [{ text: 'found', passed: ${passed}, evidence: '${passed ? 'the skill' : 'the current folder'}' }] }));\n`;
    const agent = await skill(
      'lookup',
      [{ id: 'g1', prompt: 'answer', assertions: [{ type: 'which-grader' }] }],
      answer,
    );
    await mkdir(join(root, 'lookup', '.skeval', 'graders'), { recursive: true });
    await writeFile(join(root, 'lookup', '.skeval', 'graders', 'which-grader.mjs'), grader(true));
    const elsewhere = join(root, 'elsewhere');
    await mkdir(join(elsewhere, '.skeval', 'graders'), { recursive: true });
    await writeFile(join(elsewhere, '.skeval', 'graders', 'which-grader.mjs'), grader(false));
    const outputDir = join(root, 'lookup-runs');
    const result = await runBinary(elsewhere, ['run', join(root, 'lookup'), ...agent, '--output-dir', outputDir]);
    expect(result.code, result.stderr).toBe(0);
    const [row] = (await gradingOf(outputDir, 'lookup', 'eval-g1')).assertion_results;
    expect(row).toMatchObject({ status: 'pass', evidence: expect.stringContaining('the skill') });
    const docs = await readFile(new URL('../../../../docs/graders.md', import.meta.url), 'utf8');
    expect(docs).toContain("found by walking up from the skill's folder");
  });
});
