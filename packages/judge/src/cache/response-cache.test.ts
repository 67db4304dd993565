import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropicMessage, type FakeProvider, openaiCompletion, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { judgePromptVersion } from '../judge/build-prompt.js';
import { judgeCase } from '../judge/judge-case.js';
import type { JudgeCaseInput } from '../judge/types.js';
import { createModel } from '../model/create-model.js';
import { createResponseCache } from './response-cache.js';

let first: FakeProvider;
let second: FakeProvider;
let cacheDir: string;
beforeAll(async () => {
  [first, second] = await Promise.all([startFakeProvider(), startFakeProvider()]);
});
afterAll(() => Promise.all([first.close(), second.close()]));
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'skeval-cache-key-'));
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const input: JudgeCaseInput = {
  prompt: 'Write a greeting for Ada in greeting.txt.',
  response: 'I wrote greeting.txt for Ada.',
  files: [{ path: 'greeting.txt', size: 26, excerpt: 'Hello, Ada! Welcome back.\n' }],
  claims: [{ id: 'c1', text: 'The greeting welcomes Ada back' }],
};
const answer = (verdict: 'pass' | 'fail') => ({
  verdicts: [
    {
      id: 'c1',
      verdict,
      evidence: verdict === 'pass' ? 'The file says so.' : 'This server says no.',
      quote: verdict === 'pass' ? 'Hello, Ada! Welcome back.' : null,
      source: verdict === 'pass' ? 'greeting.txt' : null,
      absent: null,
    },
  ],
});

describe('the judge cache key', () => {
  it.each(['anthropic', 'openai'] as const)(
    'covers the endpoint: a second server gets its own request (%s)',
    async (family) => {
      const cache = createResponseCache(cacheDir);
      const reply = (verdict: 'pass' | 'fail') =>
        family === 'anthropic'
          ? { body: anthropicMessage({ toolUse: { name: 'record_verdicts', input: answer(verdict) } }) }
          : { body: openaiCompletion({ content: JSON.stringify(answer(verdict)) }) };
      const modelAt = (server: FakeProvider) =>
        createModel(family === 'anthropic' ? 'anthropic:claude-sonnet-4-6' : 'openai:gpt-5-mini', {
          apiKey: 'test-key',
          baseURL: family === 'anthropic' ? server.url : server.openaiBaseURL,
        });
      first.enqueue(reply('pass'));
      second.enqueue(reply('fail'));
      const one = await judgeCase(input, { model: modelAt(first), cache });
      const before = second.requests.length;
      const other = await judgeCase(input, { model: modelAt(second), cache });
      expect(one.verdicts[0]?.status).toBe('pass');
      expect(second.requests.length - before).toBe(1);
      expect(other).toMatchObject({ cachedCalls: 0, verdicts: [{ status: 'fail' }] });
    },
  );

  it('covers provider, model, endpoint, structured output, prompt version and the whole request', () => {
    const cache = createResponseCache(cacheDir);
    const parts = {
      provider: 'openai',
      model: 'gpt-5-mini',
      baseURL: 'http://127.0.0.1:1/v1',
      structuredOutput: 'json-schema',
      promptVersion: judgePromptVersion,
      request: { system: 's', messages: [{ role: 'user', content: 'u' }], maxTokens: 10 },
    };
    const keys = new Set([
      cache.keyOf(parts),
      cache.keyOf({ ...parts, provider: 'vllm' }),
      cache.keyOf({ ...parts, model: 'gpt-5' }),
      cache.keyOf({ ...parts, baseURL: 'http://127.0.0.1:2/v1' }),
      cache.keyOf({ ...parts, structuredOutput: 'json-mode' }),
      cache.keyOf({ ...parts, promptVersion: judgePromptVersion + 1 }),
      cache.keyOf({ ...parts, request: { ...parts.request, maxTokens: 11 } }),
      cache.keyOf({ ...parts, request: { ...parts.request, system: 't' } }),
    ]);
    expect(keys.size).toBe(8);
    expect(cache.keyOf(parts)).toBe(cache.keyOf({ ...parts }));
  });
});

describe('cached entries are read through a schema', () => {
  async function cachedOnce() {
    const cache = createResponseCache(cacheDir);
    first.enqueue({ body: openaiCompletion({ content: JSON.stringify(answer('pass')) }) });
    const model = createModel('openai:gpt-5-mini', { apiKey: 'test-key', baseURL: first.openaiBaseURL });
    await judgeCase(input, { model, cache });
    const [folder] = await readdir(cacheDir);
    const [file] = await readdir(join(cacheDir, folder ?? ''));
    return { cache, model, path: join(cacheDir, folder ?? '', file ?? '') };
  }

  it('stores the key with the answer, and answers an unchanged run from it', async () => {
    const { cache, model, path } = await cachedOnce();
    const stored = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(stored)).toEqual(['key', 'answer']);
    expect(path.endsWith(`${stored.key}.json`)).toBe(true);
    const before = first.requests.length;
    expect(await judgeCase(input, { model, cache })).toMatchObject({ cachedCalls: 1, verdicts: [{ status: 'pass' }] });
    expect(first.requests.length).toBe(before);
  });

  it.each([
    ['a damaged file', () => '{"key":'],
    ['a bare answer, as an older version wrote', (stored: { answer: unknown }) => JSON.stringify(stored.answer)],
    ['an entry under another key', (stored: object) => JSON.stringify({ ...stored, key: '0'.repeat(64) })],
    [
      'an answer of another shape',
      (stored: { key: string }) => JSON.stringify({ key: stored.key, answer: { verdicts: [] } }),
    ],
  ])('treats %s as a miss', async (_name, rewrite) => {
    const { cache, model, path } = await cachedOnce();
    await writeFile(path, rewrite(JSON.parse(await readFile(path, 'utf8'))));
    first.enqueue({ body: openaiCompletion({ content: JSON.stringify(answer('fail')) }) });
    const before = first.requests.length;
    expect(await judgeCase(input, { model, cache })).toMatchObject({ cachedCalls: 0, verdicts: [{ status: 'fail' }] });
    expect(first.requests.length - before).toBe(1);
  });
});

describe('the cache key of a sampled request', () => {
  it('differs by sample and leaves the key of an unsampled request as it was', () => {
    const cache = createResponseCache(join(tmpdir(), 'skeval-unused-cache'));
    const parts = { provider: 'anthropic', model: 'claude-test', promptVersion: 2, request: { messages: ['same'] } };
    const plain = cache.keyOf(parts);
    expect(cache.keyOf({ ...parts, sample: undefined })).toBe(plain);
    const keys = [0, 1, 2].map((sample) => cache.keyOf({ ...parts, sample }));
    expect(new Set([plain, ...keys]).size).toBe(4);
  });
});
