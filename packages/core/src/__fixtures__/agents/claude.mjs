#!/usr/bin/env node
// Stands in for `claude -p … --output-format stream-json --verbose`: writes greeting.txt and
// prints a stream shaped like Claude Code's (trimmed from a real session), with one event type
// Skeval does not know.
import { readdirSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const prompt = args[args.indexOf('-p') + 1];
const skill = readdirSync('.claude/skills', { withFileTypes: true }).find((entry) => entry.isDirectory())?.name;
const cwd = process.cwd();
const lines = [
  {
    type: 'system',
    subtype: 'init',
    cwd,
    session_id: 's1',
    tools: ['Bash', 'Read', 'Write'],
    model: 'claude-sonnet-4-6',
    permissionMode: 'bypassPermissions',
  },
  {
    type: 'assistant',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        { type: 'text', text: 'Let me read the skill.' },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'Read',
          input: { file_path: `${cwd}/.claude/skills/${skill}/SKILL.md` },
        },
      ],
      usage: { input_tokens: 1200, output_tokens: 40 },
    },
    session_id: 's1',
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: '---\nname: greeting\n---' }],
    },
    session_id: 's1',
  },
  { type: 'stream_event', event: { type: 'unknown_to_skeval' } },
  {
    type: 'assistant',
    message: {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'Write',
          input: { file_path: `${cwd}/greeting.txt`, content: 'Hello, Ada Lovelace!\n' },
        },
      ],
      usage: { input_tokens: 1300, output_tokens: 30 },
    },
    session_id: 's1',
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [
        { tool_use_id: 'toolu_2', type: 'tool_result', content: `File created successfully at: ${cwd}/greeting.txt` },
      ],
    },
    session_id: 's1',
  },
  {
    type: 'assistant',
    message: {
      id: 'msg_3',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_3',
          name: 'Bash',
          input: { command: 'cat greeting.txt', description: 'Show the file' },
        },
      ],
      usage: { input_tokens: 1350, output_tokens: 20 },
    },
    session_id: 's1',
  },
  {
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: 'toolu_3', type: 'tool_result', content: 'Hello, Ada Lovelace!', is_error: false }],
    },
    session_id: 's1',
  },
  {
    type: 'result',
    subtype: 'success',
    is_error: false,
    duration_ms: 5120,
    duration_api_ms: 4800,
    num_turns: 4,
    result: `I wrote greeting.txt for Ada Lovelace (task: ${prompt.slice(0, 20)}).`,
    session_id: 's1',
    total_cost_usd: 0.0123,
    usage: { input_tokens: 30, cache_creation_input_tokens: 1000, cache_read_input_tokens: 2800, output_tokens: 90 },
  },
];
writeFileSync('greeting.txt', 'Hello, Ada Lovelace!\n');
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
