import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The table the `totals` case's reference writes: two regions and their totals. */
export const referenceTable = '| region | total |\n|---|---|\n| north | 120 |\n| south | 80 |\n';

/**
 * Each kind of defect `skeval check` finds, beside sound assertions, in one case. `fixed` writes
 * the same case with every defect put right: what an author would change after reading the check.
 */
export function checkFixtureAssertions(fixed: boolean): unknown[] {
  return [
    // An unescaped `|` makes the pattern an alternation of empty strings: it matches anything.
    fixed
      ? { kind: 'output', method: 'regex', pattern: 'north\\D+120' }
      : { kind: 'output', method: 'regex', pattern: '| region | total |' },
    // Any response without "ERROR" passes, the empty one first.
    fixed
      ? { kind: 'output', method: 'contains', value: 'north 120' }
      : { kind: 'output', method: 'not-contains', value: 'ERROR' },
    // sales.csv is one of the case's own files: it is there before the agent starts.
    { type: 'file-exists', path: fixed ? 'r.md' : 'sales.csv' },
    // A stale number: the reference (and the data) says 120.
    { kind: 'workspace', method: 'file-contains', path: 'r.md', value: fixed ? '| north | 120 |' : '| north | 125 |' },
    // An agent that never ran called no tool at all.
    fixed
      ? { kind: 'workspace', method: 'file-contains', path: 'r.md', value: '| south | 80 |' }
      : { kind: 'behavior', method: 'tool-not-called', tool: 'delete_file' },
    // The same empty-matching pattern on a file: it needs the file, and nothing in it.
    fixed
      ? { kind: 'workspace', method: 'file-contains', path: 'r.md', pattern: '^\\| region \\| total \\|$', flags: 'm' }
      : { kind: 'workspace', method: 'file-contains', path: 'r.md', pattern: '| region | total |' },
    // Sound: the right row, and the header checked as a literal.
    { kind: 'workspace', method: 'file-contains', path: 'r.md', value: '| north | 120 |' },
    { type: 'regex-match', pattern: 'south \\| 80', target: { file: 'r.md' } },
    'The response names the file it wrote',
  ];
}

/** A skill `totals` with one case, its input file, and its reference in evals/reference/1/. */
export async function writeCheckFixture(root: string, options: { fixed?: boolean } = {}): Promise<string> {
  const skillDir = join(root, 'totals');
  await mkdir(join(skillDir, 'evals', 'reference', '1', 'outputs'), { recursive: true });
  await writeFile(
    join(skillDir, 'SKILL.md'),
    '---\nname: totals\ndescription: Sums a sales CSV by region into a Markdown table in r.md.\n---\n\nRead the CSV, add up each region, write r.md.\n',
  );
  await writeFile(
    join(skillDir, 'evals', 'evals.json'),
    `${JSON.stringify(
      {
        skill_name: 'totals',
        evals: [
          {
            id: 1,
            prompt: 'Sum sales.csv by region into a table in r.md.',
            files: [{ path: 'sales.csv', content: 'region,total\nnorth,70\nnorth,50\nsouth,80\n' }],
            assertions: checkFixtureAssertions(options.fixed ?? false),
          },
        ],
      },
      null,
      2,
    )}\n`,
  );
  await writeFile(join(skillDir, 'evals', 'reference', '1', 'response.md'), 'I wrote r.md: north 120, south 80.\n');
  await writeFile(join(skillDir, 'evals', 'reference', '1', 'outputs', 'r.md'), referenceTable);
  return skillDir;
}
