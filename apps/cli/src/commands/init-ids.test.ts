import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

// The case ids `skeval init` makes from descriptions written the way real skills write them: a
// first sentence that wraps the topic ("A set of resources to help me …"), a "when" clause whose
// one item lists its examples in parentheses. The ids say what each case is about, and a second
// init of the same skill makes the same ids.

let root: string;

async function init(name: string, description: string, cases: number) {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
  const { code, stdout, stderr } = await runCli(root, ['init', name, '--force', '--cases', String(cases), '--json'], {
    env: {},
  });
  const ids = code === 0 ? JSON.parse(stdout).cases.map((entry: { id: string }) => entry.id) : [];
  return { code, stderr, ids };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-cli-init-ids-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('skeval init case ids', () => {
  it('takes the examples a long "when" item lists in parentheses, one case each', async () => {
    const description =
      'A set of resources to help me write all kinds of team announcements, in the voice our team likes. Use this skill whenever asked to write some sort of team announcement (launch notes, maintenance windows, incident summaries, hiring posts, etc.).';
    const result = await init('team-notes', description, 3);
    expect(result.code, result.stderr).toBe(0);
    expect(result.ids).toEqual(['launch-notes', 'maintenance-windows', 'incident-summaries', 'unrelated-request']);
  });

  it('names a case from the words of the first sentence that say something, and a case past the description by the skill', async () => {
    const description = 'A collection of helpers to turn meeting transcripts into action items for the team.';
    const result = await init('minutes', description, 2);
    expect(result.code, result.stderr).toBe(0);
    expect(result.ids).toEqual(['turn-meeting-transcripts', 'minutes-2', 'unrelated-request']);
    expect(result.ids.some((id: string) => /^task-\d/.test(id) || /-to$/.test(id))).toBe(false);
  });

  it('makes the same ids when run again on the same skill', async () => {
    const description =
      'Writes release notes into CHANGELOG.md. Use when someone asks for release notes or a version bump.';
    const first = await init('releases', description, 3);
    const second = await init('releases', description, 3);
    expect(first.ids).toEqual(['release-notes', 'version-bump', 'releases-3', 'unrelated-request']);
    expect(second.ids).toEqual(first.ids);
  });
});
