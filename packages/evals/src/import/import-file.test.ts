import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { importForeignFile } from './import-file.js';
import { mapAssertion } from './map-assertion.js';

const fixture = (path: string) => fileURLToPath(new URL(`../__fixtures__/real-world/${path}`, import.meta.url));

describe("promptfoo's assertion types", () => {
  it.each([
    [
      { type: 'contains', value: 'SELECT' },
      { id: 'a', kind: 'output', method: 'contains', value: 'SELECT' },
    ],
    [
      { type: 'icontains', value: 'select' },
      { id: 'a', kind: 'output', method: 'icontains', value: 'select' },
    ],
    [
      { type: 'contains-any', value: ['a', 'b'] },
      { id: 'a', kind: 'output', method: 'contains', value: ['a', 'b'], match: 'any' },
    ],
    [
      { type: 'not-contains', value: 'TODO' },
      { id: 'a', kind: 'output', method: 'not-contains', value: 'TODO' },
    ],
    [
      { type: 'not-icontains', value: 'todo' },
      { id: 'a', kind: 'output', method: 'not-contains', value: 'todo', ignoreCase: true },
    ],
    [
      { type: 'equals', value: '42' },
      { id: 'a', kind: 'output', method: 'exact', value: '42' },
    ],
    [{ type: 'is-json' }, { id: 'a', kind: 'output', method: 'json-valid' }],
    [
      { type: 'regex', value: '\\d+' },
      { id: 'a', kind: 'output', method: 'regex', pattern: '\\d+' },
    ],
    [
      { type: 'starts-with', value: 'Yes.' },
      { id: 'a', kind: 'output', method: 'regex', pattern: '^\\s*Yes\\.' },
    ],
    [{ type: 'llm-rubric', value: 'Is polite' }, 'Is polite'],
    [{ type: 'model-graded-closedqa', value: 'Names the capital' }, 'Names the capital'],
  ])('maps %j', (source, expected) => {
    const result = mapAssertion(source, 'a', 'tests[0].assert[0]');
    expect('assertion' in result ? result.assertion : result).toEqual(expected);
  });

  it.each([
    [{ type: 'javascript', value: 'output.length < 100' }, 'write it as a grader in .skeval/graders/'],
    [{ type: 'python', value: 'file://check.py' }, 'write it as a grader in .skeval/graders/'],
    [{ type: 'similar', value: 'x', threshold: 0.8 }, 'write the expected answer as `expected_output`'],
    [{ type: 'latency', threshold: 5000 }, 'use a behavior/budget assertion'],
    [{ type: 'not-regex', value: 'x' }, 'a pattern that must not match'],
    [{ type: 'perplexity' }, 'has no Skeval equivalent; not imported'],
  ])('lists %j as not imported, saying why', (source, reason) => {
    const result = mapAssertion(source, 'a', 'tests[0].assert[0]');
    expect('lost' in result ? result.lost : '').toContain(reason);
  });
});

describe("other tools' files read in place", () => {
  it('reads an agentv eval file beside SKILL.md as its evals, every mapping and loss a note', async () => {
    const result = await loadEvalsFileFromDisk(fixture('agentv-csv/csv-analyzer.EVAL.yaml'), 'csv-analyzer.EVAL.yaml');
    expect(result.errors).toEqual([]);
    expect(
      result.evals?.cases.map((entry) => [entry.id, entry.files.map((file) => file.path), entry.assertions.length]),
    ).toEqual([
      ['csv-top-months', ['evals/files/sales.csv'], 4],
      ['irrelevant-query', [], 0],
    ]);
    expect(result.warnings.map((issue) => issue.message)).toContain("read as agentv's eval file: 2 cases");
  });

  it("reads a promptfoo config's test files, each test for the skill of its tests/<skill>/ folder", async () => {
    const result = await importForeignFile({ absolutePath: fixture('promptfoo-ydb/promptfooconfig.yaml') });
    expect(result.evals.evals.map((entry) => [entry.id, entry.name, entry.skill, entry.assertions.length])).toEqual([
      [1, 'Search · Full-text ranking query repair', 'ydb-search', 2],
    ]);
    expect(result.evals.evals[0]?.prompt).toMatch(/^In YDB, articles has id Uint64/);
  });

  it('names the file when it is neither tool’s, and says what each tool writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeval-foreign-'));
    try {
      await writeFile(join(dir, 'notes.eval.yaml'), 'title: my notes\nitems: [1, 2]\n');
      const result = await loadEvalsFileFromDisk(join(dir, 'notes.eval.yaml'), 'notes.eval.yaml');
      expect(result.errors.map((issue) => `${issue.line}:${issue.column} ${issue.message}`)).toEqual([
        '1:1 notes.eval.yaml is neither a promptfoo config (`prompts`, `providers`, `tests` with `vars`/`assert`), an agentv eval file (`tests` of cases with `input`, `criteria`, `assertions`), a Vally eval file (`stimuli` with `prompt` and `graders`), a waza eval spec (`skill` and `tasks` patterns of task files), a skillgrade eval.yaml (`tasks` with an `instruction` each) nor a cases.yaml list (`cases` with a `prompt` each)',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the files a waza or promptfoo file names only inside its repository, listing each refused match', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skeval-foreign-'));
    try {
      await mkdir(join(dir, 'repo/.git'), { recursive: true });
      await mkdir(join(dir, 'repo/skill/tasks'), { recursive: true });
      await writeFile(join(dir, 'outside.yaml'), 'id: outside\ninputs: { prompt: read me }\n');
      await writeFile(join(dir, 'repo/skill/tasks/own.yaml'), 'id: own\ninputs: { prompt: Explain this. }\n');
      await symlink(join(dir, 'outside.yaml'), join(dir, 'repo/skill/tasks/link.yaml'));
      await writeFile(join(dir, 'repo/skill/eval.yaml'), 'skill: s\ntasks: ["tasks/*.yaml", "../../*.yaml"]\n');
      const waza = await importForeignFile({ absolutePath: join(dir, 'repo/skill/eval.yaml') });
      const refused = `resolves outside the repository (${join(dir, 'repo')}); not read: copy it into the skill folder`;
      expect(waza.evals.evals.map((entry) => entry.id)).toEqual(['own']);
      expect(waza.lost).toEqual([`tasks[0]: tasks/link.yaml ${refused}`, `tasks[1]: ../../outside.yaml ${refused}`]);
      await writeFile(join(dir, 'repo/skill/promptfooconfig.yaml'), 'prompts: ["{{q}}"]\ntests: file://../../*.yaml\n');
      const promptfoo = await importForeignFile({ absolutePath: join(dir, 'repo/skill/promptfooconfig.yaml') });
      expect(promptfoo.evals.evals).toEqual([]);
      expect(promptfoo.lost).toContain(`tests[0]: ../../outside.yaml ${refused}`);
      // Out of any repository, the bound is the eval file's folder (and the skill folder).
      await rm(join(dir, 'repo/.git'), { recursive: true });
      const loose = await importForeignFile({ absolutePath: join(dir, 'repo/skill/eval.yaml') });
      expect(loose.evals.evals.map((entry) => entry.id)).toEqual(['own']);
      expect(loose.lost).toEqual([
        `tasks[0]: tasks/link.yaml resolves outside the eval file's folder (${join(dir, 'repo/skill')}); not read: copy it into the skill folder`,
        `tasks[1]: ../../outside.yaml resolves outside the eval file's folder (${join(dir, 'repo/skill')}); not read: copy it into the skill folder`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
