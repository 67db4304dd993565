#!/usr/bin/env node
// Stands in for `codex exec --json`: writes greeting.txt and prints thread, turn and item events
// shaped like Codex's (trimmed), with one event type Skeval does not know.
import { writeFileSync } from 'node:fs';

const lines = [
  { type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
  { type: 'turn.started' },
  { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Reading the skill**' } },
  {
    type: 'item.started',
    item: {
      id: 'item_1',
      type: 'command_execution',
      command: "bash -lc 'cat .agents/skills/greeting/SKILL.md'",
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    },
  },
  {
    type: 'item.completed',
    item: {
      id: 'item_1',
      type: 'command_execution',
      command: "bash -lc 'cat .agents/skills/greeting/SKILL.md'",
      aggregated_output: '---\nname: greeting\n---\n',
      exit_code: 0,
      status: 'completed',
    },
  },
  {
    type: 'item.completed',
    item: { id: 'item_2', type: 'file_change', changes: [{ path: 'greeting.txt', kind: 'add' }], status: 'completed' },
  },
  { type: 'item.updated', item: { id: 'item_9', type: 'todo_list', items: [] } },
  {
    type: 'item.completed',
    item: { id: 'item_3', type: 'agent_message', text: 'I wrote greeting.txt for Ada Lovelace.' },
  },
  { type: 'turn.completed', usage: { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 } },
];
writeFileSync('greeting.txt', 'Hello, Ada Lovelace!\n');
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`);
