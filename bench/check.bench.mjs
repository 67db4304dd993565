// `skeval check` of one skill with 100 cases × 8 assertions, every case with a reference
// (a response and two output files: a Markdown table and a JSON file) and no judged claim: the
// whole command as a user runs it (the built CLI in its own process), reference, null agents and
// every deterministic mutant graded. Goal: ≤ 5 s. Prints the mutants graded and their rate.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goal, sized } from './figures.mjs';

const caseCount = Number(process.env.BENCH_CASES ?? sized(100, 5));
const cli = fileURLToPath(new URL('../apps/cli/dist/cli.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'skeval-check-bench-'));
const skillDir = join(root, 'totals');

const write = (path, text) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

write(
  join(skillDir, 'SKILL.md'),
  '---\nname: totals\ndescription: Sums sales by region into report.md and totals.json.\n---\n',
);
const cases = Array.from({ length: caseCount }, (_, index) => {
  const north = 100 + index;
  const south = 50 + index;
  const id = `case-${index + 1}`;
  const reference = join(skillDir, 'evals', 'reference', id);
  write(join(reference, 'response.md'), `I wrote report.md and totals.json: north ${north}, south ${south}.\n`);
  write(
    join(reference, 'outputs', 'report.md'),
    `# Totals\n\n| region | total |\n|---|---|\n| north | ${north} |\n| south | ${south} |\n\nAll ${north + south} units counted.\n`,
  );
  write(
    join(reference, 'outputs', 'totals.json'),
    `${JSON.stringify({ north, south, total: north + south }, null, 2)}\n`,
  );
  return {
    id,
    prompt: `Sum sales.csv by region (batch ${index + 1}) into report.md and totals.json.`,
    files: [{ path: 'sales.csv', content: `region,total\nnorth,${north}\nsouth,${south}\n` }],
    assertions: [
      { type: 'file-exists', path: 'report.md' },
      { kind: 'workspace', method: 'file-contains', path: 'report.md', value: `| north | ${north} |` },
      { type: 'regex-match', pattern: `^\\| south \\| ${south} \\|$`, flags: 'm', target: { file: 'report.md' } },
      { kind: 'workspace', method: 'json-valid', path: 'totals.json' },
      { kind: 'workspace', method: 'file-contains', path: 'totals.json', pattern: `"total": ${north + south}\\b` },
      { kind: 'output', method: 'contains', value: 'report.md' },
      { kind: 'output', method: 'regex', pattern: `north ${north}\\b` },
      { kind: 'behavior', method: 'tool-not-called', tool: 'delete_file' },
    ],
  };
});
write(join(skillDir, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'totals', evals: cases }, null, 2));

const started = performance.now();
const result = spawnSync(process.execPath, [cli, 'check', skillDir, '--json', '--no-judge'], {
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const seconds = (performance.now() - started) / 1000;
rmSync(root, { recursive: true, force: true });
if (result.status !== 0 && result.status !== 1)
  throw new Error(`skeval check exited ${result.status}: ${result.stderr}`);
const report = JSON.parse(result.stdout);
const checked = report.skills[0].cases;
if (checked.length !== caseCount || checked.some((entry) => entry.reference === null))
  throw new Error(`expected ${caseCount} cases with a reference, got ${checked.length}`);
const mutants = checked.reduce((total, entry) => total + entry.mutants.length, 0);
const verdicts = {};
for (const entry of checked)
  for (const assertion of entry.assertions) verdicts[assertion.verdict] = (verdicts[assertion.verdict] ?? 0) + 1;
console.log(`cases: ${caseCount} × 8 assertions, ${mutants} mutants (${(mutants / caseCount).toFixed(1)} per case)`);
console.log(`verdicts: ${JSON.stringify(verdicts)}; mutation score ${report.skills[0].mutation_score.toFixed(2)}`);
console.log(
  `load average during the check: ${loadavg()[0].toFixed(1)} (a figure of a busy machine is no figure of the tool)`,
);
console.log(`variants graded per second: ${Math.round((mutants + 3 * caseCount) / seconds)}`);
console.log(
  `skeval check: ${seconds.toFixed(2)} s ${goal({ name: 'skeval check of 100 cases × 8 assertions', value: seconds, max: 5, unit: ' s' })}`,
);
