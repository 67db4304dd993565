import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { providerError } from './replies.js';
import { responsesOutput } from './responses-output.js';
import { type FakeProvider, startFakeProvider } from './server.js';

let fake: FakeProvider;
let client: OpenAI;
beforeEach(async () => {
  fake = await startFakeProvider();
  client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 });
});
afterEach(() => fake.close());

const everything = responsesOutput({
  reasoning: 'Read the skill first.',
  text: 'I will read the skill, then write the file.',
  toolCalls: [{ name: 'exec_command', arguments: { cmd: 'cat SKILL.md' } }],
  customToolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.txt\n+one\n*** End Patch\n' }],
  usage: { input_tokens: 500, output_tokens: 40, cached_tokens: 200, reasoning_tokens: 12 },
  model: 'gpt-5.5',
});

async function collect(stream: AsyncIterable<ResponseStreamEvent>): Promise<ResponseStreamEvent[]> {
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('the Responses API', () => {
  it('answers a plain request with the response as JSON, recorded as format "responses"', async () => {
    fake.enqueue({ body: everything });
    const response = await client.responses.create({ model: 'gpt-5.5', input: 'hi' });
    expect(response.output_text).toBe('I will read the skill, then write the file.');
    expect(response.output.map((item) => [item.type, item.id])).toEqual([
      ['reasoning', 'rs_fake'],
      ['message', 'msg_fake'],
      ['function_call', 'fc_1'],
      ['custom_tool_call', 'ctc_2'],
    ]);
    expect(response.output[2]).toEqual({
      id: 'fc_1',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_1',
      name: 'exec_command',
      arguments: '{"cmd":"cat SKILL.md"}',
    });
    expect(response.usage).toEqual({
      input_tokens: 500,
      input_tokens_details: { cached_tokens: 200 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 540,
    });
    expect(fake.requests.map(({ format, path }) => [format, path])).toEqual([['responses', '/v1/responses']]);
  });

  it('streams every event OpenAI sends, in order and numbered', async () => {
    fake.enqueue({ body: everything });
    const events = await collect(await client.responses.create({ model: 'gpt-5.5', input: 'hi', stream: true }));
    const types = events.map((event) => event.type);
    // Each delta kind comes in a few chunks; the sequence without repeats is the protocol.
    expect(types.filter((type, index) => type !== types[index - 1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const text = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('I will read the skill, then write the file.');
    const args = events.flatMap((event) =>
      event.type === 'response.function_call_arguments.delta' ? [event.delta] : [],
    );
    expect(args.join('')).toBe('{"cmd":"cat SKILL.md"}');
    const input = events.flatMap((event) =>
      event.type === 'response.custom_tool_call_input.delta' ? [event.delta] : [],
    );
    expect(input.join('')).toContain('*** Add File: a.txt');
    const added = events.flatMap((event) => (event.type === 'response.output_item.added' ? [event.item] : []));
    expect(added[2]).toMatchObject({ type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1' });
    const done = events.flatMap((event) => (event.type === 'response.output_item.done' ? [event.item] : []));
    expect(done[3]).toMatchObject({
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_2',
      name: 'apply_patch',
    });
    const [created] = events;
    expect(created?.type === 'response.created' && created.response.status).toBe('in_progress');
    const completed = events.at(-1);
    expect(completed?.type === 'response.completed' && completed.response.usage).toEqual({
      input_tokens: 500,
      input_tokens_details: { cached_tokens: 200 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 540,
    });
  });

  it("is assembled by the SDK's stream helper into the same response", async () => {
    fake.enqueue({ body: everything });
    const stream = client.responses.stream({ model: 'gpt-5.5', input: 'hi' });
    let snapshot = '';
    stream.on('response.output_text.delta', (event) => {
      snapshot = event.snapshot;
    });
    const final = await stream.finalResponse();
    expect(snapshot).toBe('I will read the skill, then write the file.');
    expect(final.status).toBe('completed');
    // `output_text` is the SDK's own addition on plain calls only; the stream helper keeps the items.
    expect(final.output.find((item) => item.type === 'message')).toMatchObject({
      status: 'completed',
      content: [{ type: 'output_text', text: 'I will read the skill, then write the file.' }],
    });
    expect(final.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'exec_command',
      arguments: '{"cmd":"cat SKILL.md"}',
      call_id: 'call_1',
    });
    expect(final.usage?.total_tokens).toBe(540);
  });

  it('ends a stream after the items, without response.completed, when the reply is incomplete', async () => {
    fake.enqueue({ body: responsesOutput({ text: 'partial' }), incomplete: true });
    const events = await collect(await client.responses.create({ model: 'm', input: 'hi', stream: true }));
    expect(events.map((event) => event.type)).not.toContain('response.completed');
    expect(events.at(-1)?.type).toBe('response.output_item.done');
    // The SDK's helper does not notice: it settles on the snapshot from response.created, still
    // in progress, which is why a client has to look for response.completed itself.
    fake.enqueue({ body: responsesOutput({ text: 'partial' }), incomplete: true });
    const final = await client.responses.stream({ model: 'm', input: 'hi' }).finalResponse();
    expect(final.status).toBe('in_progress');
  });

  it('answers with a provider error, and cuts a stream off', async () => {
    fake.enqueue(
      { status: 401, body: providerError('responses', 'invalid_api_key', 'Incorrect API key provided') },
      { body: responsesOutput({ text: 'x'.repeat(500) }), cutOff: true },
    );
    await expect(client.responses.create({ model: 'm', input: 'hi' })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    await expect(client.responses.stream({ model: 'm', input: 'hi' }).finalResponse()).rejects.toThrow();
  });
});
