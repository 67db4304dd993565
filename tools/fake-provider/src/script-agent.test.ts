import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentStep, scriptAgent } from './script-agent.js';
import { type FakeProvider, startFakeProvider } from './server.js';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(() => fake.close());

const anthropicTools: Anthropic.Tool[] = ['read_file', 'write_file'].map((name) => ({
  name,
  description: name,
  input_schema: { type: 'object', properties: {} },
}));

/**
 * A small Claude-Code-like loop: streams each turn, asks for a title (a side request, no tools)
 * before every turn, and sends the second turn twice, as a retry after a dropped reply would.
 */
async function anthropicAgent(client: Anthropic) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Write the greeting files.' }];
  const calls: string[] = [];
  const titles: string[] = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const title = await client.messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'A title for this chat, please.' }],
    });
    titles.push(title.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
    const request = { model: 'claude-sonnet-4-6', max_tokens: 100, tools: anthropicTools, messages };
    if (turn === 1) await client.messages.create(request);
    const message = await client.messages.stream(request).finalMessage();
    messages.push({ role: 'assistant', content: message.content });
    const uses = message.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    if (uses.length === 0) {
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      return { text, calls, titles, ids: messages.flatMap(toolUseIds) };
    }
    calls.push(...uses.map((use) => `${use.name} ${JSON.stringify(use.input)}`));
    messages.push({
      role: 'user',
      content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: `did ${use.name}` })),
    });
  }
  throw new Error('the agent did not finish');
}

function toolUseIds(message: Anthropic.MessageParam): string[] {
  if (typeof message.content === 'string') return [];
  return message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

/** A small Codex-like loop over the Responses API: streamed turns, the whole history re-sent each time. */
async function responsesAgent(client: OpenAI) {
  const input: ResponseInputItem[] = [{ role: 'user', content: 'Write out.txt.' }];
  const calls: string[] = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const response = await client.responses
      .stream({
        model: 'gpt-5.5',
        input,
        tools: [
          { type: 'function', name: 'exec_command', parameters: {}, strict: false },
          { type: 'custom', name: 'apply_patch' },
        ],
      })
      .finalResponse();
    let called = false;
    for (const item of response.output) {
      if (item.type === 'function_call') {
        called = true;
        calls.push(`${item.call_id} ${item.name} ${item.arguments}`);
        input.push(
          { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments },
          { type: 'function_call_output', call_id: item.call_id, output: 'ok' },
        );
      } else if (item.type === 'custom_tool_call') {
        called = true;
        calls.push(`${item.call_id} ${item.name} ${item.input}`);
        input.push(
          { type: 'custom_tool_call', call_id: item.call_id, name: item.name, input: item.input },
          { type: 'custom_tool_call_output', call_id: item.call_id, output: 'Done' },
        );
      }
    }
    if (!called) {
      const message = response.output.find((item) => item.type === 'message');
      return { calls, text: message?.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('') };
    }
  }
  throw new Error('the agent did not finish');
}

describe('scriptAgent', () => {
  it('plays an Anthropic tool loop by the tool results, through side requests and retries', async () => {
    fake.respondWith(
      scriptAgent([
        { toolUse: { name: 'read_file', input: { path: '.agents/skills/greeting/SKILL.md' } } },
        {
          toolUse: [
            { name: 'write_file', input: { path: 'a.txt' } },
            { name: 'write_file', input: { path: 'b.txt' } },
          ],
        },
        { text: 'I wrote a.txt and b.txt.', usage: { input_tokens: 900, output_tokens: 20, cached_tokens: 300 } },
      ]),
    );
    const result = await anthropicAgent(new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 }));
    expect(result.calls).toEqual([
      'read_file {"path":".agents/skills/greeting/SKILL.md"}',
      'write_file {"path":"a.txt"}',
      'write_file {"path":"b.txt"}',
    ]);
    expect(result.text).toBe('I wrote a.txt and b.txt.');
    expect(result.titles).toEqual(['ok', 'ok', 'ok']);
    expect(new Set(result.ids).size).toBe(3);
    // 3 turns, 3 titles and the retried second turn: 7 requests for a 3-step script.
    expect(fake.requests).toHaveLength(7);
    expect(fake.requests.every((request) => request.format === 'anthropic')).toBe(true);
  });

  it('plays a Codex-style Responses loop: function calls, custom tool calls, then the answer', async () => {
    fake.respondWith(
      scriptAgent([
        {
          reasoning: 'Read the skill first.',
          text: 'Reading the skill.',
          toolUse: { name: 'exec_command', input: { cmd: 'cat .agents/skills/demo/SKILL.md' } },
        },
        {
          customToolCall: {
            name: 'apply_patch',
            input: '*** Begin Patch\n*** Add File: out.txt\n+hi\n*** End Patch\n',
          },
        },
        { text: 'FINAL-ANSWER: wrote out.txt' },
      ]),
    );
    const result = await responsesAgent(new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 }));
    expect(result.calls).toEqual([
      'call_s1_1 exec_command {"cmd":"cat .agents/skills/demo/SKILL.md"}',
      'call_s2_1 apply_patch *** Begin Patch\n*** Add File: out.txt\n+hi\n*** End Patch\n',
    ]);
    expect(result.text).toBe('FINAL-ANSWER: wrote out.txt');
    expect(fake.requests.map((request) => [request.format, request.body.stream])).toEqual([
      ['responses', true],
      ['responses', true],
      ['responses', true],
    ]);
  });

  it('plays the Chat Completions format too, and echoes the requested model', async () => {
    fake.respondWith(scriptAgent([{ toolUse: { name: 'list_files', input: {} } }, { text: 'two files' }]));
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 });
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'list_files', parameters: { type: 'object' } } },
    ];
    const first = await client.chat.completions.create({
      model: 'gpt-5-mini',
      tools,
      messages: [{ role: 'user', content: 'list' }],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.name).toBe('list_files');
    expect(first.model).toBe('gpt-5-mini');
    const second = await client.chat.completions.create({
      model: 'gpt-5-mini',
      tools,
      messages: [
        { role: 'user', content: 'list' },
        { role: 'assistant', content: null, tool_calls: call ? [call] : [] },
        { role: 'tool', tool_call_id: call?.id ?? '', content: 'a b' },
      ],
    });
    expect(second.choices[0]?.message.content).toBe('two files');
  });

  it('fails transiently, then recovers, with the SDK retrying', async () => {
    fake.respondWith(
      scriptAgent([
        {
          failTimes: 2,
          failWith: { status: 529, headers: { 'retry-after-ms': '1' } },
          recoverWith: { text: 'recovered' },
        },
      ]),
    );
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 2 });
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      tools: anthropicTools,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(fake.requests).toHaveLength(3);
  });

  it('answers with errors in the provider’s own shape, or hangs', async () => {
    const steps: AgentStep[] = [{ status: 401 }];
    fake.respondWith(scriptAgent(steps));
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    const request = {
      model: 'm',
      max_tokens: 10,
      tools: anthropicTools,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    await expect(anthropic.messages.create(request)).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0, timeout: 200 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'f', parameters: {}, strict: false }];
    await expect(openai.responses.create({ model: 'm', input: 'hi', tools })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    steps[0] = { hang: true };
    await expect(openai.responses.create({ model: 'm', input: 'hi', tools })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionTimeoutError,
    );
  });

  it('drops the first stream before response.completed, then streams the step whole', async () => {
    fake.respondWith(
      scriptAgent([{ failTimes: 1, failWith: { incomplete: true }, recoverWith: { text: 'second try' } }]),
    );
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'f', parameters: {}, strict: false }];
    const types = async () => {
      const seen: string[] = [];
      for await (const event of await client.responses.create({ model: 'm', input: 'hi', tools, stream: true }))
        seen.push(event.type);
      return seen;
    };
    expect(await types()).not.toContain('response.completed');
    expect(await types()).toContain('response.completed');
  });

  it('lets a test choose the side requests, and says when the script is used up', async () => {
    fake.respondWith(
      scriptAgent([{ toolUse: { name: 'read_file', input: {} } }], {
        isSideRequest: (request) => request.body.model === 'claude-haiku-4-5',
        sideText: 'A title',
      }),
    );
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    const ask = async (model: string, messages: Anthropic.MessageParam[]) => {
      const message = await client.messages.create({ model, max_tokens: 10, tools: anthropicTools, messages });
      return message.content.map((block) => (block.type === 'text' ? block.text : block.type));
    };
    expect(await ask('claude-haiku-4-5', [{ role: 'user', content: 'title?' }])).toEqual(['A title']);
    expect(await ask('claude-sonnet-4-6', [{ role: 'user', content: 'go' }])).toEqual(['tool_use']);
    const done: Anthropic.MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s1_1', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s1_1', content: 'x' }] },
    ];
    expect(await ask('claude-sonnet-4-6', done)).toEqual(['(scriptAgent: all 1 steps are used up)']);
  });

  it('refuses a custom tool call outside the Responses API', async () => {
    fake.respondWith(scriptAgent([{ customToolCall: { name: 'apply_patch', input: 'x' } }]));
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'm',
        max_tokens: 10,
        tools: anthropicTools,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
