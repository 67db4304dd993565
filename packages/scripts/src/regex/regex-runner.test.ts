import { afterAll, describe, expect, it } from 'vitest';
import { createRegexRunner } from './regex-runner.js';

const runner = createRegexRunner({ timeoutMs: 300 });
afterAll(() => runner.close());

describe('createRegexRunner', () => {
  it('returns the first match with its index', async () => {
    expect(await runner.run([{ pattern: 'b+', text: 'abbbc' }])).toEqual([{ status: 'match', index: 1, match: 'bbb' }]);
  });

  it('honours flags', async () => {
    const [plain, ignoringCase] = await runner.run([
      { pattern: '^hello$', text: 'x\nHELLO' },
      { pattern: '^hello$', flags: 'im', text: 'x\nHELLO' },
    ]);
    expect(plain).toEqual({ status: 'no-match' });
    expect(ignoringCase).toEqual({ status: 'match', index: 2, match: 'HELLO' });
  });

  it('reports a pattern that does not compile as an error', async () => {
    const [outcome] = await runner.run([{ pattern: '(', text: 'x' }]);
    expect(outcome).toEqual({ status: 'error', message: 'Invalid regular expression: /(/: Unterminated group' });
  });

  it('ends a catastrophic pattern as an error while the process stays responsive', async () => {
    const events: string[] = [];
    const running = runner.run([
      { pattern: 'quick', text: 'the quick fox' },
      { pattern: '(a+)+$', text: `${'a'.repeat(50_000)}!` },
      { pattern: 'fox', text: 'the quick fox' },
    ]);
    // A timer of this thread fires while the patterns run: they run elsewhere.
    setTimeout(() => events.push('a timer of this thread fired'), 10);
    const outcomes = await running.finally(() => events.push('the run ended'));
    expect(outcomes).toEqual([
      { status: 'match', index: 4, match: 'quick' },
      { status: 'error', message: 'regex timed out after 300 ms' },
      { status: 'match', index: 10, match: 'fox' },
    ]);
    expect(events).toEqual(['a timer of this thread fired', 'the run ended']);
  });

  it('keeps working after a worker was stopped', async () => {
    await runner.run([{ pattern: '(a+)+$', text: `${'a'.repeat(30_000)}!` }]);
    expect(await runner.run([{ pattern: 'ok', text: 'ok' }])).toEqual([{ status: 'match', index: 0, match: 'ok' }]);
  });

  it('sends the jobs of callers in the same turn as one batch', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => runner.run([{ pattern: String(index), text: `n${index}` }])),
    );
    expect(results.map(([outcome]) => outcome?.status)).toEqual(Array(50).fill('match'));
  });
});
