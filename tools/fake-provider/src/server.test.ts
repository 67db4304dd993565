import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicMessage, openaiCompletion } from './replies.js';
import { responsesOutput } from './responses-output.js';
import { type FakeProvider, startFakeProvider } from './server.js';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(() => fake.close());

describe('the fake provider server', () => {
  it('answers the Anthropic SDK, plain and streamed, and records the requests', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    fake.enqueue(
      { body: anthropicMessage({ text: 'hello' }) },
      { body: anthropicMessage({ text: 'streamed', usage: { input_tokens: 7, output_tokens: 3 } }) },
    );
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'hello' }]);
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'streamed' }]);
    expect(final.usage.output_tokens).toBe(3);
    expect(fake.requests.map((request) => [request.format, request.body.stream ?? false])).toEqual([
      ['anthropic', false],
      ['anthropic', true],
    ]);
    const { authorization, 'x-api-key': apiKey } = fake.requests[0]?.headers ?? {};
    expect([authorization, apiKey]).toContain(apiKey === undefined ? 'Bearer test' : 'test');
  });

  it('answers the OpenAI SDK, plain and streamed', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 });
    fake.enqueue({ body: openaiCompletion({ content: 'hello' }) }, { body: openaiCompletion({ content: 'streamed' }) });
    const completion = await client.chat.completions.create({
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('hello');
    const stream = await client.chat.completions.create({
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('streamed');
  });

  it('answers with any status, a function of the request, or garbage', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0 });
    fake.enqueue({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '0' } });
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toMatchObject({ status: 429 });
    fake.respondWith((request) => ({ body: openaiCompletion({ content: `echo ${String(request.body.model)}` }) }));
    expect((await client.chat.completions.create({ model: 'mine', messages: [] })).choices[0]?.message.content).toBe(
      'echo mine',
    );
    fake.enqueue({ body: 'not json at all' });
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toThrow();
  });

  it('hangs until the client gives up, and cuts a body off', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: fake.openaiBaseURL, maxRetries: 0, timeout: 200 });
    fake.enqueue({ hang: true }, { body: openaiCompletion({ content: 'x'.repeat(1000) }), cutOff: true });
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionTimeoutError,
    );
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toThrow();
  });

  it('ends any streamed format without its final event when the reply is incomplete', async () => {
    fake.enqueue(
      { body: anthropicMessage({ text: 'a' }), incomplete: true },
      { body: openaiCompletion({ content: 'b' }), incomplete: true },
      { body: responsesOutput({ text: 'c' }), incomplete: true },
    );
    const stream = async (path: string) => {
      const response = await fetch(`${fake.url}${path}`, { method: 'POST', body: JSON.stringify({ stream: true }) });
      return response.text();
    };
    const anthropic = await stream('/v1/messages');
    expect(anthropic).toContain('event: content_block_stop');
    expect(anthropic).not.toMatch(/message_delta|message_stop/);
    const openai = await stream('/v1/chat/completions');
    expect(openai).toContain('"content":"b"');
    expect(openai).not.toMatch(/finish_reason":"stop|\[DONE\]/);
    const responses = await stream('/v1/responses');
    expect(responses).toMatch(/event: response\.output_item\.done\ndata: .*\n\n$/);
    expect(responses).not.toContain('response.completed');
  });

  it('finds marker strings in every request body', async () => {
    fake.respondWith(() => ({ body: anthropicMessage({ text: 'ok' }) }));
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
    const marker = 'SKILL-BODY-7f3 "quoted"\nnext line';
    await client.messages.create({
      model: 'm',
      max_tokens: 10,
      system: marker,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'other' }] });
    expect(fake.bodiesContain(marker)).toBe(true);
    expect(fake.bodiesContain('SKILL-BODY-7f3')).toBe(true);
    expect(fake.bodiesContain('not-sent')).toBe(false);
    expect(fake.requestText().split('\n')).toHaveLength(2);
  });
});
