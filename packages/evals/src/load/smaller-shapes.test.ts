import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSkills } from '../skills/discover-skills.js';
import { loadEvalsFileFromDisk } from '../skills/load-from-disk.js';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';
const load = (value: unknown) => loadEvalsFile({ source: JSON.stringify(value, null, 2), fileName });
const lines = (issues: Parameters<typeof formatIssue>[1][]) => issues.map((issue) => formatIssue(fileName, issue));

describe('did you mean, for case keys and grader names', () => {
  it('names the case key a mistyped one meant', () => {
    const result = load({ skill_name: 'x', evals: [{ id: 1, prompt: 'Do it.', expected_ouput: 'done' }] });
    expect(lines(result.warnings)).toEqual([
      `${fileName}:7:7: warning: evals[0].expected_ouput: unknown case key \`expected_ouput\` (did you mean \`expected_output\`?) is kept but not used`,
    ]);
  });

  it('says `promt` meant `prompt` when the prompt is missing', () => {
    const result = load({ skill_name: 'x', evals: [{ id: 1, promt: 'Do it.' }] });
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      'unknown case key `promt` (did you mean `prompt`?) is kept but not used',
    ]);
    expect(result.errors.map((issue) => issue.code)).toEqual(['prompt-missing']);
  });

  it('makes a mistyped method an error when validating, naming the method meant', () => {
    const result = load({
      skill_name: 'x',
      evals: [
        {
          id: 1,
          prompt: 'Do it.',
          assertions: [{ id: 'a', kind: 'workspace', method: 'file-contians', path: 'a.txt', value: 'x' }],
        },
      ],
    });
    expect(result.evals).toBeUndefined();
    expect(result.errors.map((issue) => issue.message)).toEqual([
      'unknown `method` "file-contians" for kind `workspace` (did you mean `file-contains`?); use one of file-exists, file-contains, json-valid, snapshot-diff, or add a custom grader `file-contians` in .skeval/graders/',
    ]);
  });

  it('makes a mistyped assertion type an error, naming the type meant', () => {
    const result = load({
      skill_name: 'x',
      evals: [{ id: 1, prompt: 'Do it.', assertions: [{ type: 'file_exsts', path: 'a.txt' }] }],
    });
    expect(result.errors.map((issue) => issue.message)).toEqual([
      '`type: "file_exsts"` is not a built-in check (did you mean `file-exists`?) and no custom grader has that name; correct it, or add a custom grader `file_exsts` in .skeval/graders/',
    ]);
  });

  it('still reads a method no built-in is near as a custom grader, with the judge grading its prose', () => {
    const result = load({
      skill_name: 'x',
      evals: [
        {
          id: 1,
          prompt: 'Do it.',
          assertions: [{ id: 'a', kind: 'output', method: 'tone-check', description: 'Polite.' }],
        },
      ],
    });
    expect(result.errors).toEqual([]);
  });
});

describe('case lists under other names', () => {
  it.each(['prompts', 'evaluations'])('says to rename `%s` to `evals`', (key) => {
    const result = load({ skill_name: 'x', [key]: [{ id: 1, prompt: 'Do it.' }] });
    expect(result.errors.map((issue) => issue.message)).toEqual([
      `no \`evals\` array; the cases seem to be under \`${key}\`: rename it to \`evals\``,
    ]);
  });
});

describe('skill folders as repositories lay them out', () => {
  let root: string;
  async function write(path: string, content: string) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'skeval-shapes-'));
    await mkdir(join(root, '.git'));
    await write('skills/report/SKILL.md', skill('report'));
    await write('skills/report/assets/data.csv', 'a,b\n');
    await write(
      'skills/report/evals/evals.json',
      JSON.stringify({
        skill_name: 'report',
        evals: [{ id: 1, prompt: 'Sum it.', files: ['skills/report/assets/data.csv'] }],
      }),
    );
    await write('skills/quality/SKILL.md', skill('quality'));
    await write(
      'skills/quality/evals/quality-evals.json',
      JSON.stringify({ skill_name: 'quality', evals: [{ id: 1, prompt: 'Write it.' }] }),
    );
    await write('rooted/SKILL.md', skill('rooted'));
    await write('rooted/evals/evals.json', JSON.stringify({ skill_name: 'rooted', evals: [{ id: 1, prompt: 'a' }] }));
    await write('rooted/tests/evals.json', JSON.stringify({ skill_name: 'rooted', evals: [{ id: 2, prompt: 'b' }] }));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('reads a file path written from the repository root as the skill folder’s, with a note', async () => {
    const result = await loadEvalsFileFromDisk(join(root, 'skills/report/evals/evals.json'), 'evals.json');
    expect(result.errors).toEqual([]);
    expect(result.evals?.cases[0]?.files).toEqual([{ path: 'assets/data.csv' }]);
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      '`skills/report/assets/data.csv` is relative to the repository root; read as `assets/data.csv` in the skill folder: write paths relative to the skill folder so other tools find them too',
    ]);
  });

  it('finds output cases kept in evals/quality-evals.json', async () => {
    const skills = await discoverSkills({ path: 'skills', cwd: root });
    expect(skills.map((entry) => [entry.name, relative(root, entry.evalsPath)])).toEqual([
      ['quality', 'skills/quality/evals/quality-evals.json'],
      ['report', 'skills/report/evals/evals.json'],
    ]);
  });

  it('says which evals file of a skill folder is not run', async () => {
    const skills = await discoverSkills({ path: 'rooted', cwd: root });
    expect(skills.unpaired.map((entry) => entry.reason)).toEqual([
      'rooted/tests/evals.json is not run: the skill in rooted runs rooted/evals/evals.json (one evals file per skill)',
    ]);
  });
});
