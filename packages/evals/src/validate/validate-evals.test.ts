import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvals } from './validate-evals.js';

let root: string;

async function write(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-validate-evals-'));
  await write('skills/noisy/SKILL.md', '---\nname: noisy\n---\n');
  await write(
    'skills/noisy/evals/evals.json',
    JSON.stringify({
      skill_name: 'noisy',
      evals: Array.from({ length: 5 }, (_, index) => ({ id: index + 1, prompt: 'Do it.', rubric: 'Well.' })),
    }),
  );
  await write('skills/inputs/SKILL.md', '---\nname: inputs\n---\n');
  await write('skills/inputs/data/in.csv', 'a\n');
  await write(
    'skills/inputs/evals/evals.json',
    JSON.stringify({ skill_name: 'inputs', evals: [{ id: 1, prompt: 'Sum it.', files: ['data/in.csv', 'gone.csv'] }] }),
  );
  await write('skills/resend-cli/SKILL.md', '---\nname: resend-cli\n---\n');
  await write('skills/resend-cli/send.sh', 'echo sent\n');
  await write(
    'skills/evals/evals.json',
    JSON.stringify({ skill_name: 'resend-cli', evals: [{ id: 1, prompt: 'Send it.', files: ['send.sh'] }] }),
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('validateEvals', () => {
  it('keeps every warning and offers them collapsed, one line per message', async () => {
    const { files } = await validateEvals({ paths: ['skills/noisy'], cwd: root });
    expect(files[0]?.warnings).toHaveLength(5);
    expect(files[0]?.collapsedWarnings).toMatchObject([
      {
        code: 'unknown-key',
        count: 5,
        message: 'unknown case key `rubric` is kept but not used',
        pointers: ['evals[0].rubric', 'evals[1].rubric', 'evals[2].rubric'],
      },
    ]);
  });

  it('reports a `files` entry missing from the skill folder as a located error', async () => {
    const { files } = await validateEvals({ paths: ['skills/inputs'], cwd: root });
    expect(files[0]?.valid).toBe(false);
    expect(files[0]?.errors.map((issue) => [issue.code, issue.pointer])).toEqual([
      ['missing-file', 'evals[0].files[1]'],
    ]);
  });

  it('checks an evals file paired by name against the skill it names', async () => {
    const { files } = await validateEvals({ paths: ['skills'], cwd: root });
    const paired = files.find((file) => file.fileName === join('skills', 'evals', 'evals.json'));
    expect(paired).toMatchObject({ valid: true, skillDir: join(root, 'skills', 'resend-cli') });
  });
});
