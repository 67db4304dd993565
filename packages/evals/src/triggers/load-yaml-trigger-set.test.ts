import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadYamlTriggerSet } from './load-yaml-trigger-set.js';
import { loadSkillTriggers } from './skill-triggers.js';

const read = (source: string, skillName = 'code-explainer') =>
  loadYamlTriggerSet({ source, fileName: 'evals/trigger_tests.yaml', skillName });

describe('YAML trigger files', () => {
  it('reports a YAML syntax error at its line, with no queries', async () => {
    const load = await read('skill: code-explainer\nshould_trigger_prompts:\n  - prompt: a: b\n');
    expect(load.queries).toEqual([]);
    expect(load.errors).toHaveLength(1);
    expect(load.errors[0]?.message).toBe('invalid YAML: Nested mappings are not allowed in compact mappings');
    expect(load.errors[0]?.line).toBe(3);
  });

  it('refuses a key written twice, as JSON files are checked for it', async () => {
    const load = await read('skill: a\nskill: b\nshould_trigger_prompts:\n  - prompt: explain this\n');
    expect(load.errors.map((issue) => [issue.line, issue.message.slice(0, 13)])).toEqual([[2, 'invalid YAML:']]);
  });

  it('places an item with no prompt at its line and column, and reads the rest', async () => {
    const source = [
      'skill: code-explainer',
      'should_trigger_prompts:',
      '  - prompt: explain this',
      '  - reason: no prompt here',
      'should_not_trigger_prompts:',
      '  - prompt: deploy my app',
      '    confidence: high',
      '',
    ].join('\n');
    const load = await read(source);
    expect(load.queries.map((query) => [query.query, query.shouldTrigger, query.line])).toEqual([
      ['explain this', true, 3],
      ['deploy my app', false, 6],
    ]);
    expect(load.errors.map((issue) => [issue.pointer, issue.line, issue.column, issue.code])).toEqual([
      ['should_trigger_prompts[1]', 4, 5, 'prompt-missing'],
    ]);
  });

  it('warns at the `skill` key when it names another skill than the folder holding the file', async () => {
    const load = await read('skill: other-skill\nshould_trigger_prompts:\n  - prompt: explain this\n');
    expect(load.queries).toHaveLength(1);
    expect(load.warnings.map((issue) => [issue.line, issue.message])).toEqual([
      [
        1,
        '`skill` names other-skill, but the file is read for code-explainer, the skill whose folder holds it; write `skill: code-explainer` or move the file beside other-skill',
      ],
    ]);
  });

  it('gives an empty file no queries and no issues', async () => {
    expect(await read('')).toMatchObject({ queries: [], errors: [], warnings: [] });
  });
});

describe('a skill whose trigger queries are in trigger_tests.yaml', () => {
  it('has them read with its other trigger files, as `skeval triggers` reads them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skeval-yaml-triggers-'));
    try {
      await mkdir(join(root, 'evals'));
      await writeFile(join(root, 'SKILL.md'), '---\nname: code-explainer\ndescription: Explains code\n---\n');
      await writeFile(
        join(root, 'evals', 'trigger_tests.yaml'),
        'skill: code-explainer\nshould_trigger_prompts:\n  - prompt: explain this\nshould_not_trigger_prompts:\n  - prompt: deploy it\n',
      );
      await writeFile(
        join(root, 'evals', 'trigger-evals.json'),
        '[{ "query": "what does this do?", "should_trigger": true }]',
      );
      const found = await loadSkillTriggers({ skillDir: root, skillName: 'code-explainer', cwd: root });
      expect(found.files.map((file) => file.fileName)).toEqual([
        'evals/trigger-evals.json',
        'evals/trigger_tests.yaml',
      ]);
      expect(found.queries.map((query) => [query.query, query.shouldTrigger, query.shape])).toEqual([
        ['what does this do?', true, 'eval-set'],
        ['explain this', true, 'waza-trigger-tests'],
        ['deploy it', false, 'waza-trigger-tests'],
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
