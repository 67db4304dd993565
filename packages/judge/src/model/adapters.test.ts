import { anthropicMessage, type FakeProvider, openaiCompletion, startFakeProvider } from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from './create-model.js';
import type { GenerateRequest } from './types.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

const conversation: GenerateRequest = {
  system: 'You are an agent.',
  messages: [
    { role: 'user', content: 'Write greeting.txt' },
    {
      role: 'assistant',
      content: 'Writing it.',
      toolCalls: [{ id: 't1', name: 'write_file', arguments: { path: 'greeting.txt', content: 'Hi' } }],
    },
    { role: 'tool', toolCallId: 't1', content: 'wrote 2 bytes' },
  ],
  tools: [
    {
      name: 'write_file',
      description: 'Write a file',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
    },
  ],
  maxTokens: 100,
};

describe('model adapters: tool calls both ways', () => {
  it('Anthropic: sends tools and tool results in Messages API form, reads tool_use blocks', async () => {
    fake.enqueue({
      body: anthropicMessage({
        text: 'Reading it back.',
        toolUse: { id: 'toolu_2', name: 'read_file', input: { path: 'greeting.txt' } },
        usage: { input_tokens: 30, output_tokens: 8 },
      }),
    });
    const model = createModel('anthropic:claude-sonnet-4-6', { apiKey: 'k', baseURL: fake.url });
    const result = await model.generate(conversation);
    expect(result).toEqual({
      text: 'Reading it back.',
      toolCalls: [{ id: 'toolu_2', name: 'read_file', arguments: { path: 'greeting.txt' } }],
      usage: { inputTokens: 30, outputTokens: 8, cachedInputTokens: 0 },
      finishReason: 'tool_calls',
    });
    const body = fake.requests.at(-1)!.body;
    expect(body.system).toBe('You are an agent.');
    expect(body.tools).toEqual([
      { name: 'write_file', description: 'Write a file', input_schema: conversation.tools![0]!.inputSchema },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Write greeting.txt' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Writing it.' },
          { type: 'tool_use', id: 't1', name: 'write_file', input: { path: 'greeting.txt', content: 'Hi' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'wrote 2 bytes' }] },
    ]);
  });

  it('OpenAI: sends tools and tool results in Chat Completions form, reads tool_calls', async () => {
    fake.enqueue({
      body: openaiCompletion({
        content: null,
        toolCalls: [{ id: 'call_2', name: 'read_file', arguments: { path: 'greeting.txt' } }],
        usage: { prompt_tokens: 40, completion_tokens: 9, cached_tokens: 10 },
      }),
    });
    const model = createModel('openai:gpt-5-mini', { apiKey: 'k', baseURL: fake.openaiBaseURL });
    const result = await model.generate(conversation);
    expect(result).toEqual({
      text: '',
      toolCalls: [{ id: 'call_2', name: 'read_file', arguments: { path: 'greeting.txt' } }],
      usage: { inputTokens: 40, outputTokens: 9, cachedInputTokens: 10 },
      finishReason: 'tool_calls',
    });
    const body = fake.requests.at(-1)!.body;
    expect(body.max_completion_tokens).toBe(100);
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Write greeting.txt' },
      {
        role: 'assistant',
        content: 'Writing it.',
        tool_calls: [
          {
            id: 't1',
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"greeting.txt","content":"Hi"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'wrote 2 bytes' },
    ]);
  });

  it('a compatible server gets max_tokens and no key it did not ask for', async () => {
    fake.enqueue({ body: openaiCompletion({ content: 'ok' }) });
    await createModel('ollama:llama3.1', { baseURL: fake.openaiBaseURL, env: {} }).generate({
      system: 's',
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 7,
    });
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'llama3.1', max_tokens: 7 });
  });
});
