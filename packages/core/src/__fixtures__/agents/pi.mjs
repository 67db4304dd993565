#!/usr/bin/env node
// Stands in for `pi -p --mode json`: checks it got --no-skills and --skill <path>, writes
// greeting.txt and prints agent events shaped like Pi's (trimmed).
import { writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (!args.includes('--no-skills') || !args.includes('--skill')) {
  process.stderr.write('expected --no-skills and --skill\n');
  process.exit(2);
}
const skillPath = args[args.indexOf('--skill') + 1];
const assistant = (content, usage) => ({
  role: 'assistant',
  content,
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  usage,
  stopReason: 'stop',
  timestamp: 1,
});
const usage = {
  input: 900,
  output: 40,
  cacheRead: 100,
  cacheWrite: 0,
  totalTokens: 1040,
  cost: { input: 0.0027, output: 0.0006, cacheRead: 0, cacheWrite: 0, total: 0.0033 },
};
const lines = [
  { type: 'session', id: 'ccd569e0', version: 3, timestamp: '2026-11-30T00:00:00.000Z', cwd: process.cwd() },
  { type: 'agent_start' },
  { type: 'turn_start' },
  { type: 'message_start', message: { role: 'user', content: [{ type: 'text', text: 'task' }] } },
  { type: 'message_end', message: { role: 'user', content: [{ type: 'text', text: 'task' }] } },
  {
    type: 'message_end',
    message: assistant(
      [
        { type: 'text', text: 'Reading the skill.' },
        { type: 'toolCall', id: 'tc_1', name: 'read', arguments: { path: `${skillPath}/SKILL.md` } },
      ],
      usage,
    ),
  },
  { type: 'tool_execution_start', toolCallId: 'tc_1', toolName: 'read', args: { path: `${skillPath}/SKILL.md` } },
  {
    type: 'tool_execution_end',
    toolCallId: 'tc_1',
    toolName: 'read',
    result: { content: [{ type: 'text', text: '---\nname: greeting\n---' }], details: {} },
    isError: false,
  },
  { type: 'turn_end', message: assistant([], usage), toolResults: [] },
  { type: 'turn_start' },
  {
    type: 'message_end',
    message: assistant(
      [
        {
          type: 'toolCall',
          id: 'tc_2',
          name: 'write',
          arguments: { path: 'greeting.txt', content: 'Hello, Ada Lovelace!\n' },
        },
      ],
      usage,
    ),
  },
  {
    type: 'tool_execution_start',
    toolCallId: 'tc_2',
    toolName: 'write',
    args: { path: 'greeting.txt', content: 'Hello, Ada Lovelace!\n' },
  },
  {
    type: 'tool_execution_end',
    toolCallId: 'tc_2',
    toolName: 'write',
    result: { content: [{ type: 'text', text: 'Wrote 21 bytes' }] },
    isError: false,
  },
  { type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 0, errorMessage: 'ignored' },
  {
    type: 'message_end',
    message: assistant([{ type: 'text', text: 'I wrote greeting.txt for Ada Lovelace.' }], usage),
  },
  { type: 'turn_end', message: assistant([], usage), toolResults: [] },
];
writeFileSync('greeting.txt', 'Hello, Ada Lovelace!\n');
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
