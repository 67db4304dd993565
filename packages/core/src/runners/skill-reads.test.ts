import { describe, expect, it } from 'vitest';
import { parseClaudeCodeStream } from './claude-code/parse-stream.js';
import { parseCodexStream } from './codex/parse-stream.js';
import { parsePiStream } from './pi/parse-stream.js';

// Each agent's own tool shapes, as its stream prints them, through its real parser.

const ws = '/work/case/ws';
const lines = (...events: unknown[]) => events.map((event) => JSON.stringify(event)).join('\n');

function claudeReads(skillsDir: string, uses: Array<{ name: string; input: Record<string, unknown> }>): string[] {
  const skills = ['xlsx', 'xlsx-pro'].map((name) => ({ name, path: `${ws}/${skillsDir}/${name}` }));
  const content = uses.map((use, index) => ({ type: 'tool_use', id: `t${index}`, ...use }));
  const stream = lines({ type: 'assistant', message: { id: 'm', content } });
  return parseClaudeCodeStream(stream, ws, 0, skills).trace.skills_read ?? [];
}

function codexReads(items: unknown[]): string[] {
  const skills = [{ name: 'xlsx', path: `${ws}/.agents/skills/xlsx` }];
  const stream = lines(...items.map((item) => ({ type: 'item.completed', item })));
  return parseCodexStream(stream, ws, 0, skills).trace.skills_read ?? [];
}

function piReads(calls: Array<{ toolName: string; args: Record<string, unknown> }>): string[] {
  const skills = [{ name: 'xlsx', path: `${ws}/.pi/skills/xlsx` }];
  const stream = lines(
    ...calls.map((call, index) => ({ type: 'tool_execution_start', toolCallId: `c${index}`, ...call })),
  );
  return parsePiStream(stream, ws, 0, skills).trace.skills_read ?? [];
}

describe('Claude Code: reading a skill', () => {
  const read = (input: Record<string, unknown>, name = 'Read') => claudeReads('.claude/skills', [{ name, input }]);

  it.each([
    ['Read of its SKILL.md', 'Read', { file_path: `${ws}/.claude/skills/xlsx/SKILL.md` }],
    ['Read of its SKILL.md by a relative path', 'Read', { file_path: '.claude/skills/xlsx/SKILL.md' }],
    ['cat after a cd', 'Bash', { command: `cd ${ws}/.claude/skills/xlsx && cat SKILL.md` }],
    ['sed -n after a relative cd', 'Bash', { command: "cd .claude/skills/xlsx && sed -n '1,80p' SKILL.md" }],
    ['a glob the shell expands to it', 'Bash', { command: 'cat .claude/skills/*/SKILL.md' }],
    ['head among other commands', 'Bash', { command: 'head -n 40 .claude/skills/xlsx/SKILL.md; python3 run.py' }],
    ['the Skill tool naming it', 'Skill', { skill: 'xlsx' }],
    ['the Skill tool naming it as a plugin skill', 'Skill', { skill: 'office:xlsx' }],
    ['a SlashCommand naming it', 'SlashCommand', { command: '/xlsx report.xlsx' }],
    ['its own folder outside the workspace', 'Read', { file_path: '/root/.claude/skills/xlsx/SKILL.md' }],
  ])('counts %s', (_label, name, input) => {
    expect(read(input, name)).toContain('xlsx');
  });

  it.each([
    ['a Write of its SKILL.md', 'Write', { file_path: `${ws}/.claude/skills/xlsx/SKILL.md`, content: '# mine' }],
    [
      'an Edit of its SKILL.md',
      'Edit',
      { file_path: '.claude/skills/xlsx/SKILL.md', old_string: 'a', new_string: 'b' },
    ],
    ['a cat that writes it', 'Bash', { command: 'cat > .claude/skills/xlsx/SKILL.md' }],
    ['an ls of its folder', 'Bash', { command: 'ls .claude/skills/xlsx/SKILL.md' }],
    ['a Glob for it', 'Glob', { pattern: '**/SKILL.md', path: `${ws}/.claude/skills/xlsx` }],
    ['the Skill tool naming another skill', 'Skill', { skill: 'xlsx-pro' }],
    ['a SlashCommand naming another skill', 'SlashCommand', { command: '/xlsx-pro' }],
    ['a skill whose name ends with it', 'Read', { file_path: `${ws}/.claude/skills/myxlsx/SKILL.md` }],
    ['another SKILL.md in the workspace', 'Read', { file_path: `${ws}/drafts/xlsx/SKILL.md` }],
    ['another file of the skill', 'Read', { file_path: `${ws}/.claude/skills/xlsx/reference.md` }],
  ])('does not count %s', (_label, name, input) => {
    expect(read(input, name)).not.toContain('xlsx');
  });

  it('counts only the skill the Skill tool names, not one whose name contains it', () => {
    expect(read({ skill: 'xlsx-pro' }, 'Skill')).toEqual(['xlsx-pro']);
  });
});

describe('Codex: reading a skill', () => {
  const run = (command: string) => codexReads([{ id: 'i', type: 'command_execution', command, exit_code: 0 }]);

  it.each([
    ['cat of its SKILL.md', "/bin/bash -lc 'cat .agents/skills/xlsx/SKILL.md'"],
    ['sed -n after a cd', "/bin/bash -lc 'cd .agents/skills/xlsx && sed -n 1,120p SKILL.md'"],
    ['a glob the shell expands to it', "bash -lc 'head -n 20 .agents/skills/*/SKILL.md'"],
  ])('counts %s', (_label, command) => {
    expect(run(command)).toEqual(['xlsx']);
  });

  it.each([
    ['an ls of its folder', "/bin/bash -lc 'ls -la .agents/skills/xlsx'"],
    ['a search in it', "/bin/bash -lc 'rg -n sheet .agents/skills/xlsx/SKILL.md'"],
    ['a skill whose name ends with it', "/bin/bash -lc 'cat .agents/skills/myxlsx/SKILL.md'"],
  ])('does not count %s', (_label, command) => {
    expect(run(command)).toEqual([]);
  });

  it('does not count a file_change that adds its SKILL.md', () => {
    const change = {
      id: 'f',
      type: 'file_change',
      status: 'completed',
      changes: [{ path: `${ws}/.agents/skills/xlsx/SKILL.md`, kind: 'add' }],
    };
    expect(codexReads([change])).toEqual([]);
  });
});

describe('Pi: reading a skill', () => {
  it.each([
    ['read of its SKILL.md', 'read', { path: '.pi/skills/xlsx/SKILL.md' }],
    ['cat after a cd', 'bash', { command: `cd ${ws}/.pi/skills/xlsx && cat SKILL.md` }],
  ])('counts %s', (_label, toolName, args) => {
    expect(piReads([{ toolName, args }])).toEqual(['xlsx']);
  });

  it.each([
    ['a write of its SKILL.md', 'write', { path: '.pi/skills/xlsx/SKILL.md', content: '# mine' }],
    ['an ls of its folder', 'ls', { path: '.pi/skills/xlsx' }],
    ['a skill whose name ends with it', 'read', { path: '.pi/skills/myxlsx/SKILL.md' }],
  ])('does not count %s', (_label, toolName, args) => {
    expect(piReads([{ toolName, args }])).toEqual([]);
  });
});
