import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadTriggerSet } from './load-trigger-set.js';

const corpusDir = new URL('../../../../../shared/corpus/evals-json/', import.meta.url);
// In CI the corpus is laid beside the project: there a missing one fails the tests.
const skipReason =
  existsSync(corpusDir) || process.env.CI ? '' : ` (skipped: the shared corpus is not at ${fileURLToPath(corpusDir)})`;

describe.skipIf(skipReason !== '')(`trigger sets in the corpus of real evals files${skipReason}`, () => {
  it('reads every shape the corpus holds, with the counts of each', () => {
    const shapes: Record<string, number> = {};
    const files: Record<string, number> = {};
    for (const name of readdirSync(corpusDir).filter((file) => file.endsWith('.json'))) {
      const load = loadTriggerSet({ source: readFileSync(new URL(name, corpusDir)), fileName: name });
      // Two files are not JSON at all; those errors are the evals loader's to report too.
      expect(
        load.errors.filter((issue) => issue.path.length > 0),
        name,
      ).toEqual([]);
      for (const [shape, count] of Object.entries(load.shapes)) {
        shapes[shape] = (shapes[shape] ?? 0) + count;
        files[shape] = (files[shape] ?? 0) + 1;
      }
    }
    expect({ files, shapes }).toEqual({
      files: {
        'case-field': 2,
        'eval-set': 1,
        'top-level-lists': 1,
        'trigger-evals-array': 1,
        'trigger-evals-lists': 1,
      },
      shapes: {
        'case-field': 13,
        'eval-set': 20,
        'top-level-lists': 4,
        'trigger-evals-array': 20,
        'trigger-evals-lists': 12,
      },
    });
  });

  it('reads a trigger_evals array whose should_trigger names skills as routing to those skills', () => {
    const name = 'hiyeshu__codeck__skills__evals__evals.json';
    const load = loadTriggerSet({
      source: readFileSync(new URL(name, corpusDir)),
      fileName: name,
      skillName: 'codeck',
    });
    expect(load.queries.filter((query) => query.shouldTrigger).map((query) => query.query)).toEqual([
      '我有一堆 markdown 笔记想做成 PPT',
      'codeck',
    ]);
    expect(load.queries[1]).toMatchObject({ shouldTrigger: false, expectedSkill: 'codeck-outline' });
    expect(load.queries.at(-1)).toMatchObject({ shouldTrigger: false, expectedSkill: null });
  });

  it('keeps expected_skill and forbidden_skills of top-level lists', () => {
    const name = 'Orthic-Labs__legion__skills__commit__evals__evals.json';
    const load = loadTriggerSet({
      source: readFileSync(new URL(name, corpusDir)),
      fileName: name,
      skillName: 'commit',
    });
    expect(
      load.queries.map((query) => [query.id, query.shouldTrigger, query.expectedSkill, query.forbiddenSkills]),
    ).toEqual([
      ['commit-explicit', true, 'commit', ['audit']],
      ['commit-natural', true, 'commit', ['audit']],
      ['commit-not-whole-repo-audit', false, 'audit', ['commit']],
      ['commit-not-pr-comments', false, null, ['commit']],
    ]);
  });
});

describe('loadTriggerSet', () => {
  it('locates each query and each problem with its line and column', () => {
    const source = `{
  "trigger_evals": {
    "should_trigger": ["commit this", { "query": "" }],
    "should_not_trigger": [{ "query": "show the log", "should_trigger": true, "weight": 2 }]
  }
}`;
    const load = loadTriggerSet({ source, fileName: 'evals.json' });
    expect(
      load.queries.map((query) => [query.id, query.query, query.shouldTrigger, query.pointer, query.line]),
    ).toEqual([
      ['q1', 'commit this', true, 'trigger_evals.should_trigger[0]', 3],
      ['q2', 'show the log', false, 'trigger_evals.should_not_trigger[0]', 4],
    ]);
    expect(load.errors.map((issue) => [issue.pointer, issue.line, issue.column, issue.message])).toEqual([
      ['trigger_evals.should_trigger[1].query', 3, 50, '`query` is empty; write what a user would ask'],
    ]);
    expect(load.warnings.map((issue) => issue.message)).toEqual([
      '`should_trigger` is true in the `should_not_trigger` list; the list decides (false)',
      '`weight` is kept but not used by trigger evals',
    ]);
  });

  it('asks for should_trigger where no list says it, and names what it got for a bad one', () => {
    const load = loadTriggerSet({
      source: '[{ "query": "a", "should_trigger": "" }, { "query": "b", "should_trigger": 1 }]',
      fileName: 'trigger-evals.json',
    });
    expect(load.queries).toEqual([]);
    expect(load.errors.map((issue) => issue.message)).toEqual([
      '`should_trigger` must be true, false, null or the name of the skill that should load, got a string',
      '`should_trigger` must be true, false, null or the name of the skill that should load, got an integer',
    ]);
  });

  it('reads should_trigger on cases, with the case prompt as the query, and leaves other cases alone', () => {
    const load = loadTriggerSet({
      source: JSON.stringify({
        evals: [
          { id: 1, prompt: 'say hi', should_trigger: true },
          { id: 2, prompt: 'deploy' },
          { id: 3, prompt: 'sort a list', should_trigger: false },
        ],
      }),
      fileName: 'evals.json',
    });
    expect(load.queries.map((query) => [query.id, query.query, query.shouldTrigger, query.shape])).toEqual([
      ['1', 'say hi', true, 'case-field'],
      ['3', 'sort a list', false, 'case-field'],
    ]);
  });

  it('finds nothing in a file without trigger sets', () => {
    const load = loadTriggerSet({ source: '{ "evals": [{ "prompt": "x" }] }', fileName: 'evals.json' });
    expect(load).toMatchObject({ queries: [], errors: [], warnings: [] });
  });
});
