import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { estimateCost, findPrice } from '../pricing/price-table.js';
import { createModel, parseModelSpec } from './create-model.js';
import { extractJson } from './provider-call.js';

describe('model specs', () => {
  it('reads provider:model', () => {
    expect(parseModelSpec('anthropic:claude-sonnet-4-6')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(parseModelSpec('ollama:llama3.1:8b')).toEqual({ provider: 'ollama', model: 'llama3.1:8b' });
  });

  it('refuses what is not a spec, with an example', () => {
    expect(() => parseModelSpec('gpt-5')).toThrow(
      'model "gpt-5" is not `provider:model`; for example anthropic:claude-sonnet-4-6, openai:gpt-5-mini or ollama:llama3.1',
    );
    expect(() => createModel('mystery:model')).toThrow(/unknown provider `mystery`/);
  });

  it('knows the compatible presets', () => {
    expect(createModel('ollama:llama3.1')).toMatchObject({
      provider: 'ollama',
      structuredOutput: 'json-mode',
      contextTokens: 8192,
    });
    expect(createModel('openrouter:anthropic/claude-sonnet-4.5')).toMatchObject({
      provider: 'openrouter',
      structuredOutput: 'json-schema',
    });
    expect(createModel('vllm:qwen', { baseURL: 'http://127.0.0.1:9/v1' })).toMatchObject({ provider: 'vllm' });
  });
});

describe('prices', () => {
  it('matches a dated model id to its family and prices cached input apart', () => {
    expect(findPrice('anthropic', 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15, cachedInput: 0.3 });
    expect(
      estimateCost({ inputTokens: 1_000_000, outputTokens: 100_000, cachedInputTokens: 0 }, 'openai', 'gpt-5-mini'),
    ).toBe(0.45);
  });

  it('gives null for an unknown model, and takes overrides', () => {
    expect(estimateCost({ inputTokens: 10, outputTokens: 10, cachedInputTokens: 0 }, 'ollama', 'llama3.1')).toBeNull();
    expect(
      estimateCost({ inputTokens: 10, outputTokens: 10, cachedInputTokens: 0 }, 'ollama', 'llama3.1', {
        'ollama:llama3.1': { input: 0, output: 0 },
      }),
    ).toBe(0);
  });
});

describe('extractJson', () => {
  it.each([
    ['plain JSON', '{"a":1}', { a: 1 }],
    ['a fenced block', 'Sure:\n```json\n{"a":2}\n```', { a: 2 }],
    ['JSON inside prose', 'The answer is {"a":3}. Done.', { a: 3 }],
    ['prose', 'no JSON here', undefined],
  ])('reads %s', (_name, text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });
});

describe('lazy SDKs', () => {
  it('never loads openai when only Anthropic is used', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeval-lazy-'));
    const log = join(dir, 'loaded.txt');
    await writeFile(log, '');
    const hook = `export async function resolve(specifier, context, next) {
      if (/^(openai|@anthropic-ai\\/sdk)(\\/|$)/.test(specifier)) (await import('node:fs')).appendFileSync(${JSON.stringify(log)}, specifier + '\\n');
      return next(specifier, context);
    }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { createModel } = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
      const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'k', baseURL: 'http://127.0.0.1:9', timeoutMs: 2000 });
      await model.generate({ system: 's', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 }).catch(() => {});
    `;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    await rm(dir, { recursive: true, force: true });
    expect(loaded).toContain('@anthropic-ai/sdk');
    expect(loaded.filter((specifier) => specifier.startsWith('openai'))).toEqual([]);
  });
});
