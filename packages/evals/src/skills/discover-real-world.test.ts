import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvals } from '../validate/validate-evals.js';
import { discoverSkills } from './discover-skills.js';

const fixtures = fileURLToPath(new URL('../__fixtures__/real-world/', import.meta.url));
let root: string;

async function write(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}
const skillFile = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-real-world-'));
  // ToolUniverse's skills/evals/evals.json: one file, each case naming its skill.
  for (const name of [
    'tooluniverse-organic-chemistry',
    'tooluniverse-computational-biophysics',
    'tooluniverse-drug-drug-interaction',
  ])
    await write(`skills/${name}/SKILL.md`, skillFile(name));
  await mkdir(join(root, 'skills/evals'), { recursive: true });
  await copyFile(join(fixtures, 'multi-skill.tooluniverse.evals.json'), join(root, 'skills/evals/evals.json'));
  // A collective skill_name, a case for two skills, and a case for a skill that is not there.
  await write('plugins/opencode/SKILL.md', skillFile('opencode'));
  await write('plugins/opencode-build/SKILL.md', skillFile('opencode-build'));
  await write(
    'tests/evals.json',
    JSON.stringify({
      skill_name: 'opencode + opencode-build',
      evals: [
        { id: 'run', prompt: 'Run the project.', target_skill: 'opencode' },
        { id: 'both', prompt: 'Build, then run.', target_skills: ['opencode', 'tools/opencode-build'] },
        { id: 'gone', prompt: 'Lint it.', skill: 'opencode-lint' },
      ],
    }),
  );
  // A skill with trigger queries only.
  await write('skills/deck-maker/SKILL.md', skillFile('deck-maker'));
  await write(
    'skills/deck-maker/evals/trigger-evals.json',
    JSON.stringify({
      cases: [
        { id: 't1', query: 'make slides from my notes', expected: 'should_trigger' },
        { id: 'n1', query: 'fix my regex', expected: 'should_not_trigger' },
      ],
    }),
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('discovery of files for several skills', () => {
  it('pairs one file with every skill its cases name, each running its own cases', async () => {
    const skills = await discoverSkills({ path: '.', cwd: root });
    const runs = skills.map((skill) => [
      skill.name,
      relative(root, skill.evalsPath),
      skill.load.evals?.cases.map((entry) => entry.id),
    ]);
    expect(runs).toEqual([
      ['opencode', 'tests/evals.json', ['run', 'both']],
      ['opencode-build', 'tests/evals.json', ['both']],
      ['tooluniverse-computational-biophysics', 'skills/evals/evals.json', ['2']],
      ['tooluniverse-drug-drug-interaction', 'skills/evals/evals.json', ['3']],
      ['tooluniverse-organic-chemistry', 'skills/evals/evals.json', ['1']],
    ]);
  });

  it('accepts a collective skill_name with a note, and reads a namespaced skill', async () => {
    const [opencode] = await discoverSkills({ path: '.', cwd: root, skills: ['opencode'] });
    expect(opencode?.load.errors).toEqual([]);
    expect(opencode?.load.warnings.map((issue) => issue.message)).toEqual([
      '`skill_name` "opencode + opencode-build" names no one skill; the cases name their own (`skill`, `target_skill`, `target_skills`), and each runs with the skills it names',
      '`target_skills` "tools/opencode-build" is a namespaced name (`group/skill`); read as "opencode-build", the skill\'s own name, since a folder name cannot hold `/`',
    ]);
  });

  it('says which cases name a skill that is not there, and that a trigger-only skill runs with skeval triggers', async () => {
    const { unpaired } = await discoverSkills({ path: '.', cwd: root });
    expect(unpaired.map((entry) => entry.reason)).toEqual([
      'tests/evals.json: the cases for "opencode-lint" are not run: no SKILL.md is named "opencode-lint"; name the skill as its SKILL.md does',
      'deck-maker (skills/deck-maker) has trigger queries only (skills/deck-maker/evals/trigger-evals.json) and no evals.json: `skeval run` has no case of it to run; run them with `skeval triggers skills/deck-maker`',
    ]);
  });

  it('points at skeval triggers when a folder holds only trigger queries', async () => {
    await expect(discoverSkills({ path: 'skills/deck-maker', cwd: root })).rejects.toThrow(
      /has trigger queries only .* run them with `skeval triggers skills\/deck-maker`/,
    );
  });

  it('validates the trigger file of a trigger-only skill', async () => {
    const result = await validateEvals({ paths: ['skills/deck-maker'], cwd: root });
    expect(result.files.map((file) => [file.fileName, file.valid, file.triggers?.total])).toEqual([
      ['skills/deck-maker/evals/trigger-evals.json', true, 2],
    ]);
  });
});
