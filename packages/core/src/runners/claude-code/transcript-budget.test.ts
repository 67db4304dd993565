import { readFileSync } from 'node:fs';
import { buildGraderPayload, resolveGrader, runGrader } from '@skeval/scripts';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeStream } from './parse-stream.js';

// A `budget` with `maxTokens` on a real Claude Code 2.1.19 transcript whose run used two models
// (see __fixtures__/README.md). The real use is summed here from the `result` line's
// `modelUsage`, every model and every kind of token, not taken from the parser.

type ModelUsage = Record<'inputTokens' | 'outputTokens' | 'cacheReadInputTokens' | 'cacheCreationInputTokens', number>;
type ResultLine = {
  type: 'result';
  usage: Record<'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens', number>;
  modelUsage: Record<string, ModelUsage>;
};

const text = readFileSync(new URL('./__fixtures__/skillsbench-citation-check.jsonl', import.meta.url), 'utf8');
const lines: Array<{ type: string }> = text
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const resultLine = lines.find((line): line is ResultLine => line.type === 'result');
const models = Object.values(resultLine?.modelUsage ?? {});
const realUse = models.reduce(
  (total, model) =>
    total + model.inputTokens + model.outputTokens + model.cacheReadInputTokens + model.cacheCreationInputTokens,
  0,
);
const tokenKeys = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;
const resultLineUse = tokenKeys.reduce((total, key) => total + (resultLine?.usage[key] ?? 0), 0);

async function gradeBudget(maxTokens: number) {
  const { trace } = parseClaudeCodeStream(text, '/root', 0);
  const payload = buildGraderPayload({ prompt: 'task', response: '', trace, config: { maxTokens } });
  return runGrader(resolveGrader('behavior-budget', { from: '/' }), payload);
}

describe('a token budget on a real Claude Code run with two models', () => {
  it('holds two models whose tokens the result line usage leaves out in part', () => {
    expect(models.length).toBe(2);
    expect(resultLineUse).toBeLessThan(realUse - 1);
  });

  it('fails a maxTokens one under the real use', async () => {
    const result = await gradeBudget(realUse - 1);
    expect(result.score).toBe(0);
    expect(result.assertions[0]?.evidence).toBe(`${realUse} tokens of ${realUse - 1} (over)`);
  });

  it('passes a maxTokens of exactly the real use, and one over it', async () => {
    expect((await gradeBudget(realUse)).score).toBe(1);
    const over = await gradeBudget(realUse + 1);
    expect(over.score).toBe(1);
    expect(over.assertions[0]?.evidence).toBe(`${realUse} tokens of ${realUse + 1}`);
  });
});
