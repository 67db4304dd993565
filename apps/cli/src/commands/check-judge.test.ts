import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicMessage, type FakeProvider, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCheckFixture } from './__fixtures__/check-fixture.js';
import { setProcessEnv } from './__fixtures__/process-env.js';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;
let fake: FakeProvider;
let restoreEnv: () => void;

function run(args: string[]) {
  return runCli(root, args, { env: { ANTHROPIC_API_KEY: 'test-key' } });
}

/** Text of a system prompt or message content: a string, or Anthropic's blocks of text. */
const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map((block) => (typeof block?.text === 'string' ? block.text : '')).join('')
      : '';

/** A judge request's input tokens, a token per four characters of its instructions and messages. */
function inputTokensOf(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const user = messages.map((message) => textOf(message?.content)).join('');
  return Math.ceil((textOf(body.system).length + user.length) / 4);
}

/** The response the judge was shown, from between the fences of its request. */
const responseShown = (body: unknown) => /I wrote r\.md: north[^"\\]*/.exec(JSON.stringify(body))?.[0];

beforeAll(async () => {
  fake = await startFakeProvider();
  // A judge that passes the claim when the response says which file it wrote, quoting it; a fail otherwise.
  // It counts a token per four characters of the request, as a tokenizer would roughly.
  fake.respondWith((request) => {
    if (JSON.stringify(request.body).includes('wrong_answers')) {
      // Two near misses: a stale total, and one that also tries to write outside the workspace.
      const answers = [
        {
          broke: 'north is 125',
          response: 'I wrote r.md: north 125, south 80.',
          files: [{ path: 'r.md', content: '| region | total |\n|---|---|\n| north | 125 |\n| south | 80 |\n' }],
        },
        {
          broke: 'the file is elsewhere',
          response: 'I wrote r.md: north 120, south 80.',
          files: [{ path: '../../escaped.md', content: 'x' }],
        },
      ];
      return { body: anthropicMessage({ toolUse: { name: 'wrong_answers', input: { answers } } }) };
    }
    const shown = responseShown(request.body);
    const verdict = shown
      ? {
          id: 'a9',
          verdict: 'pass',
          evidence: 'names r.md',
          quote: 'I wrote r.md: north',
          source: 'response',
          absent: null,
        }
      : { id: 'a9', verdict: 'fail', evidence: 'no file is named', quote: null, source: null, absent: 'r.md' };
    // Usage counted as Skeval's estimate counts it: a token per four characters of the
    // instructions and the prompt, 80 output tokens a verdict.
    return {
      body: anthropicMessage({
        toolUse: { name: 'record_verdicts', input: { verdicts: [verdict] } },
        usage: { input_tokens: inputTokensOf(request.body), output_tokens: 80 },
      }),
    };
  });
  restoreEnv = setProcessEnv({ ANTHROPIC_BASE_URL: fake.url });
  root = await mkdtemp(join(tmpdir(), 'skeval-check-judge-'));
  await writeCheckFixture(root, { fixed: true });
});

afterAll(async () => {
  restoreEnv();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

const judgeFlags = ['--judge', 'anthropic:claude-sonnet-4-6', '--no-cache'];

describe('skeval check with a judge', () => {
  it('shows the judge calls and their cost first, then makes exactly that many requests, one per judged variant', async () => {
    const planned = await run(['check', 'totals', ...judgeFlags, '--dry-run', '--json']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout);
    // The reference, the two null agents and three sampled mutants: six variants, six calls.
    expect(plan.skills[0].cases[0].judged_variants).toBe(6);
    expect(plan.judge.calls).toBe(6);
    expect(fake.requests).toHaveLength(0);

    const checked = await run(['check', 'totals', ...judgeFlags, '--json']);
    expect(fake.requests).toHaveLength(plan.judge.calls);
    const shown = fake.requests.map((request) => responseShown(request.body) ?? '(no answer)');
    expect(new Set(shown).size).toBeGreaterThan(1);
    const claim = JSON.parse(checked.stdout).skills[0].cases[0].assertions[8];
    expect(claim, claim.why).toMatchObject({ passes_reference: true, passes_null: false });
    expect(['ok', 'weak']).toContain(claim.verdict);
    expect(checked.code).toBe(0);
  });

  it('spends exactly what the dry run showed: the same calls, the same requests, the same cost', async () => {
    const dry = await run(['check', 'totals', ...judgeFlags, '--dry-run']);
    expect(dry.code).toBe(0);
    const shown = /^judge: (\d+) calls, one per judged variant; \$(\d+\.\d{4})$/m.exec(dry.stdout);
    expect(shown, dry.stdout).not.toBeNull();
    const plan = JSON.parse((await run(['check', 'totals', ...judgeFlags, '--dry-run', '--json'])).stdout);
    expect(plan.judge.cost_usd.low).toBe(plan.judge.cost_usd.high);
    const before = fake.requests.length;
    const checked = await run(['check', 'totals', ...judgeFlags]);
    expect(fake.requests.length - before).toBe(plan.judge.calls);
    const spent = /judge: (\d+) calls, \$(\d+\.\d+)/.exec(checked.stdout);
    expect(Number(spent?.[1])).toBe(Number(shown?.[1]));
    expect(spent?.[2]).toBe(shown?.[2]);
    const spentUsd = fake.requests
      .slice(before)
      .reduce((total, request) => total + (3 * inputTokensOf(request.body) + 15 * 80) / 1e6, 0);
    expect(plan.judge.cost_usd.high).toBeCloseTo(spentUsd, 6);
  });

  it('--llm-mutants asks the judge model once per case for near misses, grades them apart, and drops a path that leaves the workspace', async () => {
    const planned = JSON.parse(
      (await run(['check', 'totals', ...judgeFlags, '--no-judge', '--llm-mutants', '2', '--dry-run', '--json'])).stdout,
    );
    expect(planned.llm_mutant_calls).toBe(1);
    const before = fake.requests.length;
    const checked = await run(['check', 'totals', ...judgeFlags, '--no-judge', '--llm-mutants', '2', '--json']);
    expect(fake.requests.length - before).toBe(1);
    const [entry] = JSON.parse(checked.stdout).skills[0].cases;
    expect(entry.llm_mutants).toEqual([
      { id: 'llm-1', killed: true, broke: 'north is 125' },
      // Its only file change left the workspace and was dropped: the reference's files, the reference's answer.
      { id: 'llm-2', killed: false, broke: 'the file is elsewhere' },
    ]);
    await expect(import('node:fs/promises').then((fs) => fs.stat(join(root, '..', 'escaped.md')))).rejects.toThrow();
    expect(entry.mutants.some((mutant: { id: string }) => mutant.id.startsWith('llm-'))).toBe(false);
  });

  it('--no-judge leaves the claim unchecked and calls nothing', async () => {
    const before = fake.requests.length;
    const checked = await run(['check', 'totals', ...judgeFlags, '--no-judge', '--json']);
    expect(fake.requests.length).toBe(before);
    const claim = JSON.parse(checked.stdout).skills[0].cases[0].assertions[8];
    expect(claim).toMatchObject({ verdict: 'unchecked', passes_reference: null });
    expect(claim.why).toContain('--no-judge');
  });
});
