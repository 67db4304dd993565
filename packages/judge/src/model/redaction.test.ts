import { inspect } from 'node:util';
import {
  anthropicMessage,
  type FakeProvider,
  openaiCompletion,
  providerError,
  startFakeProvider,
} from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeCase } from '../judge/judge-case.js';
import type { JudgeCaseInput } from '../judge/types.js';
import { createModel } from './create-model.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

const apiKey = 'sk-test-4f9c2a7e1b0d8c6a5e3f';
const otherSecret = 'ghp_0123456789abcdefghijklmnop';
const input: JudgeCaseInput = {
  prompt: 'Write greeting.txt.',
  response: 'I wrote greeting.txt for Ada.',
  files: [],
  claims: [{ id: 'c1', text: 'The reply names greeting.txt' }],
};

type Family = 'anthropic' | 'openai';
const families: Family[] = ['anthropic', 'openai'];

const modelFor = (family: Family) =>
  createModel(family === 'anthropic' ? 'anthropic:claude-sonnet-4-6' : 'openai:gpt-5-mini', {
    apiKey,
    baseURL: family === 'anthropic' ? fake.url : fake.openaiBaseURL,
    env: { GITHUB_TOKEN: otherSecret },
  });

/** A 400 whose body echoes the request's key, as some providers and proxies do. */
const echoingKey = (family: Family) => ({
  status: 400,
  body: providerError(family, 'invalid_request_error', `invalid request for key ${apiKey} (also seen: ${otherSecret})`),
});

describe.each(families)('secrets stay out of errors and evidence, %s wire format', (family) => {
  it('redacts the API key a 400 body echoes from the verdicts’ evidence', async () => {
    fake.enqueue(echoingKey(family));
    const result = await judgeCase(input, { model: modelFor(family), cache: false, timeoutMs: 5000 });
    const evidence = result.verdicts[0]?.evidence ?? '';
    expect(evidence).toMatch(/^the judge could not be asked \(provider_invalid_response: .*400/);
    expect(evidence).not.toContain(apiKey);
    expect(evidence).not.toContain(otherSecret);
    expect(evidence).toContain(`[redacted:${family === 'anthropic' ? 'ANTHROPIC' : 'OPENAI'}_API_KEY]`);
    expect(evidence).toContain('[redacted:GITHUB_TOKEN]');
  });

  it('redacts them from the thrown error, its cause and details too', async () => {
    fake.enqueue(echoingKey(family));
    const error = await modelFor(family)
      .generate({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 })
      .catch((thrown: unknown) => thrown);
    const everything = inspect(error, { depth: 10 });
    expect(everything).toContain('provider_invalid_response');
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain(otherSecret);
  });

  it('redacts them from what the model answers', async () => {
    const verdicts = [
      {
        id: 'c1',
        verdict: 'fail',
        evidence: `the key is ${apiKey}`,
        quote: null,
        source: null,
        absent: null,
      },
    ];
    fake.enqueue(
      family === 'anthropic'
        ? { body: anthropicMessage({ toolUse: { name: 'record_verdicts', input: { verdicts } } }) }
        : { body: openaiCompletion({ content: JSON.stringify({ verdicts }) }) },
    );
    const result = await judgeCase(input, { model: modelFor(family), cache: false });
    expect(result.verdicts[0]?.evidence).toBe(
      `the key is [redacted:${family === 'anthropic' ? 'ANTHROPIC' : 'OPENAI'}_API_KEY]`,
    );
  });
});

it('redacts a password in the endpoint from connection errors', async () => {
  const model = createModel('ollama:llama3.1', {
    baseURL: 'http://skeval:s3cret-pass-word@127.0.0.1:9/v1',
    env: {},
    timeoutMs: 2000,
  });
  const error = await model
    .generate({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 })
    .catch((thrown: unknown) => thrown);
  expect(inspect(error, { depth: 10 })).not.toContain('s3cret-pass-word');
});
