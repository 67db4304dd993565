import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadTriggerSet } from './load-trigger-set.js';
import { loadYamlTriggerSet } from './load-yaml-trigger-set.js';

// Trigger files from public repositories, byte for byte (see __fixtures__/public/README.md).
// The expected labels are counted from the file's own JSON, not from the loader.

const read = (name: string) => readFileSync(new URL(`./__fixtures__/public/${name}`, import.meta.url), 'utf8');

describe('a public trigger-evals.json: a top-level array of { query, should_trigger }', () => {
  const source = read('xcode-disk-cleanup.trigger-evals.json');
  const items: Array<{ query: string; should_trigger: boolean }> = JSON.parse(source);

  it('reads every query with its label, in order, with no issue', () => {
    const load = loadTriggerSet({
      source,
      fileName: 'evals/trigger-evals.json',
      skillName: 'xcode-disk-cleanup',
    });
    expect(load.errors).toEqual([]);
    expect(load.warnings).toEqual([]);
    expect(load.queries.map((query) => [query.query, query.shouldTrigger])).toEqual(
      items.map((item) => [item.query, item.should_trigger]),
    );
    expect(items.filter((item) => item.should_trigger)).toHaveLength(10);
    expect(Object.values(load.shapes).reduce((total, count) => total + count, 0)).toBe(items.length);
  });
});

describe('a public trigger-evals.json for several skills: `evals` of { query, should_trigger: a skill or false }', () => {
  const source = read('maestro.trigger-evals.json');
  const items: Array<{ query: string; should_trigger: string | false }> = JSON.parse(source).evals;

  it('reads each query as one for the skill it names, and the rest as queries that must not trigger it', () => {
    const load = loadTriggerSet({ source, fileName: 'evals/trigger-evals.json', skillName: 'new-track' });
    expect(load.errors).toEqual([]);
    expect(load.queries.map((query) => [query.query, query.shouldTrigger])).toEqual(
      items.map((item) => [item.query, item.should_trigger === 'maestro:new-track']),
    );
    expect(load.queries.filter((query) => query.shouldTrigger)).toHaveLength(1);
    expect(load.queries.map((query) => query.expectedSkill).slice(0, 3)).toEqual(['setup', 'AGENTS.md', 'new-track']);
  });
});

describe("waza's public trigger_tests.yaml: should_trigger_prompts / should_not_trigger_prompts under `skill`", () => {
  const source = read('waza-code-explainer.trigger_tests.yaml');
  const spec: {
    should_trigger_prompts: Array<{ prompt: string }>;
    should_not_trigger_prompts: Array<{ prompt: string }>;
  } = parseYaml(source);

  it('reads every prompt with the list it is in as its label, in order, with no issue', async () => {
    const load = await loadYamlTriggerSet({
      source,
      fileName: 'code-explainer/trigger_tests.yaml',
      skillName: 'code-explainer',
    });
    expect(load.errors).toEqual([]);
    expect(load.warnings).toEqual([]);
    expect(load.queries.map((query) => [query.query, query.shouldTrigger])).toEqual([
      ...spec.should_trigger_prompts.map((item) => [item.prompt, true]),
      ...spec.should_not_trigger_prompts.map((item) => [item.prompt, false]),
    ]);
    expect(load.shapes).toEqual({ 'waza-trigger-tests': 16 });
  });

  it('places each query at its line in the YAML', async () => {
    const load = await loadYamlTriggerSet({ source, fileName: 'trigger_tests.yaml', skillName: 'code-explainer' });
    const lines = source.split('\n');
    for (const query of load.queries) expect(lines[query.line - 1]).toContain(`prompt: ${JSON.stringify(query.query)}`);
    expect(load.queries[8]?.pointer).toBe('should_not_trigger_prompts[0]');
  });
});
