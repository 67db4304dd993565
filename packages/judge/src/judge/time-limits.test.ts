import { type FakeProvider, providerError, startFakeProvider } from '@skeval/fake-provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModel } from '../model/create-model.js';
import { judgeCallDefaults, judgeCase } from './judge-case.js';
import type { JudgeCaseInput } from './types.js';

// A fake provider per test: a hang reply one test queued and did not use cannot answer the next.
let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(() => fake.close());

const input: JudgeCaseInput = {
  prompt: 'Write greeting.txt.',
  response: 'I wrote greeting.txt for Ada.',
  files: [],
  claims: [
    { id: 'c1', text: 'The reply names greeting.txt' },
    { id: 'c2', text: 'The reply names Ada' },
  ],
};

/** A model made with no time limit of its own: the SDK default of 120 s would apply. */
const modelFor = (family: 'anthropic' | 'openai') =>
  family === 'anthropic'
    ? createModel('anthropic:claude-sonnet-4-6', { apiKey: 'test-key', baseURL: fake.url })
    : createModel('openai:gpt-5-mini', { apiKey: 'test-key', baseURL: fake.openaiBaseURL });

describe.each(['anthropic', 'openai'] as const)('bounded judge time, %s wire format', (family) => {
  it('gives up on a hung judge after retries + 1 tries, each ended by its own time limit, as errors', {
    timeout: 15_000,
  }, async () => {
    fake.respondWith(() => ({ hang: true }));
    const result = await judgeCase(input, {
      model: modelFor(family),
      cache: false,
      timeoutMs: 1000,
      retries: 2,
      retryBaseDelayMs: 20,
    });
    expect(fake.requests).toHaveLength(3);
    expect(result.verdicts.map((verdict) => verdict.status)).toEqual(['error', 'error']);
    // The 1 s limit ended the last try, not the SDK's default of 120 s.
    expect(result.verdicts[0]?.evidence).toMatch(
      /^the judge could not be asked \(provider_timeout: .*no answer within 1000 ms/,
    );
  });

  it('honours retries: 0 (one try)', { timeout: 10_000 }, async () => {
    fake.respondWith(() => ({ status: 500, body: providerError(family, 'api_error', 'boom') }));
    const result = await judgeCase(input, { model: modelFor(family), cache: false, timeoutMs: 2000, retries: 0 });
    expect(fake.requests).toHaveLength(1);
    expect(result.verdicts[0]?.evidence).toMatch(/provider_server/);
  });
});

describe('judge time options', () => {
  it('default to 60 s a try and 2 retries', () => {
    expect(judgeCallDefaults).toEqual({ timeoutMs: 60_000, retries: 2, retryBaseDelayMs: 500 });
  });

  it('refuse a time limit or a retry count that cannot be used, with an example', async () => {
    const model = modelFor('openai');
    await expect(judgeCase(input, { model, timeoutMs: 0 })).rejects.toThrow(
      "the judge's timeoutMs is 0; give a positive number of milliseconds, for example 60000 (--judge-timeout 60)",
    );
    await expect(judgeCase(input, { model, retries: 1.5 })).rejects.toThrow(/retries is 1.5; give a whole number/);
  });

  it("a request's own time limit overrides the model's", { timeout: 10_000 }, async () => {
    fake.enqueue({ hang: true });
    const model = createModel('openai:gpt-5-mini', {
      apiKey: 'test-key',
      baseURL: fake.openaiBaseURL,
      timeoutMs: 60_000,
    });
    await expect(
      model.generate({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5, timeoutMs: 200 }),
    ).rejects.toMatchObject({ code: 'provider_timeout', message: 'openai:gpt-5-mini: no answer within 200 ms' });
  });
});
