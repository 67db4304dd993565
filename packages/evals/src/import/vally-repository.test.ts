import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSkills } from '../skills/discover-skills.js';
import { importForeignFile } from './import-file.js';

const fixture = fileURLToPath(new URL('../__fixtures__/real-world/vally-run-tests/', import.meta.url));
let outer: string;
let repo: string;
const evalDir = () => join(repo, 'tests/dotnet-test/run-tests');
const skillDir = () => join(repo, 'plugins/dotnet-test/skills/run-tests');

// dotnet/skills' layout: the skill in plugins/<plugin>/skills/<skill>/, its Vally file and the
// fixtures it seeds in tests/<plugin>/<skill>/.
beforeAll(async () => {
  outer = await mkdtemp(join(tmpdir(), 'skeval-vally-repo-'));
  repo = join(outer, 'skills');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(skillDir(), { recursive: true });
  await cp(join(fixture, 'SKILL.md'), join(skillDir(), 'SKILL.md'));
  await cp(join(fixture, 'evals/tests/run-tests'), evalDir(), { recursive: true });
  await writeFile(join(outer, 'secret.txt'), 'not in the repository\n');
});
afterAll(() => rm(outer, { recursive: true, force: true }));

describe('a Vally file whose fixtures live outside the skill folder, in the repository', () => {
  it('is paired with its skill and writes the fixture files into the workspace', async () => {
    const [found] = await discoverSkills({ path: repo });
    expect(found?.dir).toBe(skillDir());
    expect(found?.load.errors).toEqual([]);
    const cases = found?.load.evals?.cases ?? [];
    expect(cases.map((entry) => entry.files.map((file) => file.path))).toEqual([
      ['TestProject.csproj', 'OrderServiceTests.cs'],
      ['TestProject.csproj', 'UserAuthTests.cs', 'global.json'],
    ]);
    expect(found?.load.warnings.map((issue) => issue.message)).toContain(
      'mapped: stimuli[0].environment.files[0]: "fixtures/vstest-mstest/TestProject.csproj" is outside the skill folder but in the repository; its text is written into the workspace (1 file)',
    );
  });

  it('refuses a fixture that resolves outside the repository, through a path or a link, saying where', async () => {
    await symlink(join(outer, 'secret.txt'), join(evalDir(), 'fixtures/linked.txt'));
    const text = [
      'stimuli:',
      '  - name: escape',
      '    prompt: Read the files.',
      '    environment:',
      '      files:',
      '        - { src: ../../../../secret.txt, dest: a.txt }',
      '        - { src: fixtures/linked.txt, dest: b.txt }',
      '',
    ].join('\n');
    const result = await importForeignFile({ absolutePath: join(evalDir(), 'eval.yaml'), text, skillDir: skillDir() });
    expect(result.evals.evals[0]?.files).toBeUndefined();
    expect(result.lost).toEqual([
      `stimuli[0].environment.files[0]: "../../../../secret.txt" resolves outside the repository (${repo}); only files inside it are read: copy it into the skill folder; not imported`,
      `stimuli[0].environment.files[1]: "fixtures/linked.txt" resolves outside the repository (${repo}); only files inside it are read: copy it into the skill folder; not imported`,
    ]);
  });

  it('refuses a fixture outside the skill folder when the file is in no git repository', async () => {
    const loose = await mkdtemp(join(tmpdir(), 'skeval-vally-loose-'));
    try {
      await cp(evalDir(), join(loose, 'tests/run-tests'), { recursive: true });
      await mkdir(join(loose, 'skill'));
      const result = await importForeignFile({
        absolutePath: join(loose, 'tests/run-tests/eval.yaml'),
        skillDir: join(loose, 'skill'),
      });
      expect(result.lost).toContain(
        'stimuli[0].environment.files[0]: "fixtures/vstest-mstest/TestProject.csproj" is outside the skill folder, and the eval file is in no git repository: copy it into the skill folder; not imported',
      );
    } finally {
      await rm(loose, { recursive: true, force: true });
    }
  });
});
