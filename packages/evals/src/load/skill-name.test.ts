import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'skill/evals/evals.json';

function load(top: Record<string, unknown>) {
  const source = JSON.stringify({ evals: [{ id: 1, prompt: 'Do the task.' }], ...top }, null, 2);
  return loadEvalsFile({ source, fileName });
}

describe('loadEvalsFile: names that become folders', () => {
  it('rejects a skill_name that climbs out of the skills folder, located at the name, with a name that would do', () => {
    const result = load({ skill_name: '../../../../victim/.ssh' });
    expect(result.evals).toBeUndefined();
    expect(result.errors.map((issue) => formatIssue(fileName, issue))).toEqual([
      `${fileName}:8:17: error: skill_name: \`skill_name\` "../../../../victim/.ssh" contains \`/\`; the skill is installed in a folder of that name, so write one folder name of letters, digits, \`.\`, \`_\` and \`-\` (for example "victim-.ssh")`,
    ]);
    expect(result.errors[0]?.code).toBe('unsafe-name');
  });

  it.each([
    ['a Windows path', 'skills\\demo'],
    ['the parent folder', '..'],
    ['the folder itself', '.'],
    ['a NUL byte', 'demo\u0000'],
    ['a name over 64 characters', 'a'.repeat(65)],
    ['a space', 'my skill'],
  ])('rejects a skill_name that is %s', (_form, name) => {
    expect(load({ skill_name: name }).errors.map((issue) => issue.code)).toEqual(['unsafe-name']);
  });

  it("reads a namespaced group/skill as the skill's own name, with a warning", () => {
    const result = load({ skill_name: 'skills/demo' });
    expect(result.evals?.skillName).toBe('demo');
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      '`skill_name` "skills/demo" is a namespaced name (`group/skill`); read as "demo", the skill\'s own name, since a folder name cannot hold `/`',
    ]);
  });

  it('checks `skill` the same way when it stands for skill_name', () => {
    expect(load({ skill: '../outside' }).errors.map((issue) => issue.code)).toEqual(['unsafe-name']);
  });

  it("reads a plugin-qualified skill_name as the skill's own name, with a warning", () => {
    const result = load({ skill_name: 'Dev10x:git-commit' });
    expect(result.evals?.skillName).toBe('git-commit');
    expect(result.warnings.map((issue) => issue.message)).toEqual([
      '`skill_name` "Dev10x:git-commit" is a plugin\'s name for the skill (`plugin:skill`); read as "git-commit", the skill\'s own name, since a folder name cannot hold `:`',
    ]);
  });

  it('accepts any case id: run folders are made unique where they are made', () => {
    const source = JSON.stringify({
      skill_name: 'demo',
      evals: [
        { id: 'a b', prompt: 'one' },
        { id: 'a_b', prompt: 'two' },
        { id: '../x', prompt: 'three' },
      ],
    });
    const result = loadEvalsFile({ source, fileName });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});
