import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvals } from '../validate/validate-evals.js';
import { initEvals } from './init-evals.js';

const schemaFile = new URL('../../../schema/json-schema/evals.schema.json', import.meta.url).pathname;
let root: string;

async function skill(name: string, markdown: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), markdown);
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-init-evals-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** Descriptions as skills write them, some built to trip a lint rule if init copied them carelessly. */
const descriptions: Record<string, string> = {
  'pdf-tools':
    'Comprehensive PDF manipulation toolkit for extracting text and tables, creating new PDFs, merging/splitting documents, and handling forms. When Claude needs to fill in a PDF form or programmatically process, generate, or analyze PDF documents at scale.',
  'git-commit': 'Use when the user asks for /git-commit or to run the git-commit skill on staged changes.',
  'csv-report': 'Use when someone wants report.csv, summary.json or out/chart.svg from a data folder.',
  'brand-voice':
    'This skill should be used when users want copy in the brand voice: "warm, short, no jargon". Triggers on taglines, emails, or a negative review reply.',
  'quiz-maker': 'Use this when the user asks for a quiz, for example 10 questions about the French Revolution.',
  'unicode-skill': 'Écrit un résumé en français. Use when someone asks for un résumé, une synthèse ou un compte rendu.',
  'long-skill': `Use when ${'a very long request about many things, '.repeat(12)}or nothing.`,
  'odd-quotes': 'Use when a user says `make it so` or asks "why?" (or both), or types {braces} and [brackets].',
};

describe('initEvals', () => {
  it.each(Object.entries(descriptions))(
    'writes a file for %s that validates with no warning and no lint warning, its TODO prompts lint errors',
    async (name, description) => {
      const dir = await skill(
        name,
        `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n`,
      );
      const result = await initEvals({ skillDir: dir, cwd: root, cases: 3 });
      expect(result.warnings).toEqual([]);
      const { files, summary } = await validateEvals({ paths: [dir], cwd: root, lint: true });
      expect(files[0]?.errors).toEqual([]);
      expect(files[0]?.warnings).toEqual([]);
      // Only its TODO prompts are flagged: an error each, which a run refuses (init-todo.test.ts).
      expect(files[0]?.lint?.map((entry) => [entry.rule, entry.severity])).toEqual(
        Array(3).fill(['todo-prompt', 'error']),
      );
      expect(summary).toMatchObject({ valid: 1, warnings: 0, lint: { warnings: 0, errors: 3 } });
      expect(result.evals.evals).toHaveLength(4);
      expect(result.evals.evals.at(-1)?.metadata).toEqual({ negative_control: true });
    },
  );

  it('checks the files the description names and says what each case is about', async () => {
    const result = await initEvals({ skillDir: join(root, 'csv-report'), cwd: root, force: true });
    expect(result.derived).toBe(true);
    expect(result.evals.evals.map((evalCase) => [evalCase.id, evalCase.assertions.map((a) => a.path)])).toEqual([
      ['report-csv', [undefined, 'report.csv', 'report.csv', undefined]],
      ['summary-json', [undefined, 'summary.json', 'summary.json', undefined]],
      ['unrelated-request', [undefined, undefined]],
    ]);
    expect(result.evals.evals[0]?.prompt).toBe(
      'TODO: write what a user would ask here; this case is about: report.csv',
    );
  });

  it('leaves the description out where it would make a prompt name the skill', async () => {
    const result = await initEvals({ skillDir: join(root, 'git-commit'), cwd: root, force: true });
    expect(result.derived).toBe(false);
    expect(result.evals.evals[0]?.prompt).toBe('TODO: write what a user would ask here');
  });

  it('keeps the prompts given, and reports the lint warning one of them draws', async () => {
    const dir = await skill('greeter', '---\nname: greeter-bot\n---\n');
    const result = await initEvals({ skillDir: dir, cwd: root, prompts: ['Use greeter-bot to greet Ada', ''] });
    expect(result.evals.evals.map((evalCase) => evalCase.prompt)).toEqual([
      'Use greeter-bot to greet Ada',
      'TODO: write what a user would ask here',
      'What is 17 times 23? Reply with the number only.',
    ]);
    expect(result.warnings.map((warning) => ('rule' in warning ? warning.rule : warning.code))).toEqual([
      'prompt-names-skill',
    ]);
  });

  it('points $schema at the installed @skeval/schema, a path that resolves from the evals folder', async () => {
    const project = join(root, 'project');
    const installed = join(project, 'node_modules', '@skeval', 'schema', 'json-schema', 'evals.schema.json');
    await mkdir(dirname(installed), { recursive: true });
    await copyFile(schemaFile, installed);
    const dir = await skill('project/skills/deep/greeting', '---\nname: greeting\n---\n');
    const result = await initEvals({ skillDir: dir, cwd: root });
    expect(result.schemaPath).toBe('../../../../node_modules/@skeval/schema/json-schema/evals.schema.json');
    expect(existsSync(resolve(dir, 'evals', result.schemaPath))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'evals', 'evals.json'), 'utf8')).$schema).toBe(result.schemaPath);
  });

  it('points $schema beside the nearest package.json when the package is not installed yet', async () => {
    const project = join(root, 'fresh');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'package.json'), '{}');
    const dir = await skill('fresh/greeting', '---\nname: greeting\n---\n');
    expect((await initEvals({ skillDir: dir, cwd: root })).schemaPath).toBe(
      '../../node_modules/@skeval/schema/json-schema/evals.schema.json',
    );
  });
});
