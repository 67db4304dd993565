import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conversationText, requestsOfTurn, type ScriptedTurn, scriptTurns } from './script-turns.js';
import { type FakeProvider, startFakeProvider } from './server.js';

let fake: FakeProvider;
beforeEach(async () => {
  fake = await startFakeProvider();
});
afterEach(() => fake.close());

const turns: ScriptedTurn[] = [
  { marker: 'FIRST', steps: [{ toolUse: { name: 'write_file', input: { path: 'a' } } }, { text: 'one done' }] },
  { marker: 'SECOND', steps: [{ toolUse: { name: 'write_file', input: { path: 'b' } } }, { text: 'two done' }] },
];

/** A conversation the way a resumed agent sends it: each turn re-sends the whole history. */
async function converse(client: Anthropic, prompts: string[]): Promise<string[]> {
  const tools: Anthropic.Tool[] = [{ name: 'write_file', description: 'w', input_schema: { type: 'object' } }];
  const messages: Anthropic.MessageParam[] = [];
  const answers: string[] = [];
  for (const prompt of prompts) {
    messages.push({ role: 'user', content: prompt });
    for (let step = 0; step < 5; step += 1) {
      const message = await client.messages.create({ model: 'm', max_tokens: 50, tools, messages });
      messages.push({ role: 'assistant', content: message.content });
      const uses = message.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
      if (uses.length === 0) {
        answers.push(message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''));
        break;
      }
      messages.push({
        role: 'user',
        content: uses.map((use) => ({ type: 'tool_result', tool_use_id: use.id, content: 'ok' })),
      });
    }
  }
  return answers;
}

describe('scriptTurns', () => {
  it("plays each turn's steps past the tool calls of the turns before, which the history re-sends", async () => {
    fake.respondWith(scriptTurns(turns));
    const client = new Anthropic({ apiKey: 'test', baseURL: fake.url });
    expect(await converse(client, ['FIRST task', 'SECOND task'])).toEqual(['one done', 'two done']);
    const second = requestsOfTurn(fake.requests, turns, 1);
    expect(second).toHaveLength(2);
    const [opening] = second;
    if (!opening) throw new Error('turn 2 sent no request');
    expect(conversationText(opening)).toContain('one done');
    expect(requestsOfTurn(fake.requests, turns, 0)).toHaveLength(2);
  });
});
