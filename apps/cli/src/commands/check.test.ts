import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkReportSchema } from '@skeval/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCheckFixture } from './__fixtures__/check-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

let root: string;

function run(args: string[], cwd = root) {
  return runCli(cwd, args, { env: {} });
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-check-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const verdictsOf = (stdout: string) => {
  const report = checkReportSchema.parse(JSON.parse(stdout));
  return report.skills[0]?.cases[0]?.assertions.map((assertion) => assertion.verdict);
};

describe('skeval check', () => {
  it('gives each defect of the fixture its verdict, every sound assertion ok, and exits 1', async () => {
    await writeCheckFixture(root);
    const result = await run(['check', 'totals', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(verdictsOf(result.stdout)).toEqual([
      'vacuous', // an output regex that matches the empty string
      'vacuous', // not-contains "ERROR": the empty response holds no ERROR
      'vacuous', // file-exists of the case's own input
      'broken', // | north | 125 |: the reference says 120
      'vacuous', // tool-not-called on an agent that called no tool
      'weak', // the empty-matching pattern on r.md: only deleting the file fails it
      'ok',
      'ok',
      'unchecked', // a judged claim, with no judge configured
    ]);
  });

  it('prints the fixed JSON shape, with where the reference came from and each mutant by id and kind', async () => {
    await writeCheckFixture(root);
    const { stdout } = await run(['check', 'totals', '--json']);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['schema_version', 'skills']);
    const [checked] = report.skills[0].cases;
    expect(checked.reference).toBe('evals/reference/1/');
    expect(checked.mutants).toContainEqual({ id: 'file-deleted:outputs/r.md', kind: 'file-deleted', killed: true });
    expect(checked.mutants).toContainEqual({
      id: 'number-times-ten:outputs/r.md#2',
      kind: 'number-times-ten',
      killed: false,
    });
    const killed = checked.mutants.filter((mutant: { killed: boolean }) => mutant.killed).length;
    expect(checked.mutation_score).toBe(killed / checked.mutants.length);
    expect(report.skills[0].mutation_score).toBe(checked.mutation_score);
    expect(checked.assertions[3]).toMatchObject({
      index: 3,
      passes_reference: false,
      verdict: 'broken',
    });
    expect(checked.assertions[3].why).toContain('"| north | 125 |" not found in r.md');
    expect(checked.assertions[4]).toMatchObject({ passes_reference: null, passes_null: true });
  });

  it('exits 0 once every defect is fixed', async () => {
    await writeCheckFixture(root, { fixed: true });
    const result = await run(['check', 'totals', '--json']);
    expect(verdictsOf(result.stdout)).not.toContain('broken');
    expect(verdictsOf(result.stdout)).not.toContain('vacuous');
    expect(result.code).toBe(0);
  });

  it('lists a mutant no assertion kills with its diff: a wrong answer the evals accept', async () => {
    await writeCheckFixture(root);
    const result = await run(['check', 'totals']);
    expect(result.stdout).toContain('wrong answers your evals accept');
    expect(result.stdout).toContain(
      'case 1: number-times-ten:outputs/r.md#2\n      @@ line 4\n      - | south | 80 |\n      + | south | 800 |',
    );
  });

  it('exits 1 when the mutation score is under --min-mutation-score, and 2 for a share out of range', async () => {
    await writeCheckFixture(root, { fixed: true });
    expect((await run(['check', 'totals', '--min-mutation-score', '0.99'])).code).toBe(1);
    expect((await run(['check', 'totals', '--min-mutation-score', '0.5'])).code).toBe(0);
    const bad = await run(['check', 'totals', '--min-mutation-score', '80']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('give a share from 0 to 1');
  });

  it('keeps the check in evals-runs/check.json with the digest of the evals file checked', async () => {
    const skillDir = await writeCheckFixture(root);
    await run(['check', 'totals']);
    const record = JSON.parse(await readFile(join(skillDir, 'evals-runs', 'check.json'), 'utf8'));
    expect(record.version).toBe(1);
    expect(record.strength.verdicts).toEqual({ ok: 2, broken: 1, vacuous: 4, weak: 1, unchecked: 1 });
    expect(record.evals_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('says which case has no reference, and leaves its assertions unchecked unless a null agent passes them', async () => {
    const skillDir = await writeCheckFixture(root);
    await rm(join(skillDir, 'evals', 'reference'), { recursive: true });
    const { stdout } = await run(['check', 'totals', '--json']);
    const [checked] = JSON.parse(stdout).skills[0].cases;
    expect(checked.reference).toBeNull();
    expect(checked.mutation_score).toBeNull();
    expect(checked.mutants).toEqual([]);
    expect(checked.assertions[3].verdict).toBe('unchecked');
    expect(checked.assertions[3].why).toContain('write evals/reference/1/response.md');
    expect(checked.assertions[1].verdict).toBe('vacuous');
  });

  it('validate --lint warns, before anything is graded, of the defects it can see in the file', async () => {
    await writeCheckFixture(root);
    const lint = await run(['validate', '--lint', '--json', 'totals/evals/evals.json']);
    const rules = JSON.parse(lint.stdout).files[0].lint.map((warning: { rule: string; pointer: string }) => [
      warning.rule,
      warning.pointer,
    ]);
    expect(rules).toEqual(
      expect.arrayContaining([
        ['empty-match-pattern', 'evals[0].assertions[0]'],
        ['negated-absent-value', 'evals[0].assertions[1]'],
        ['provided-file-exists', 'evals[0].assertions[2]'],
        ['empty-match-pattern', 'evals[0].assertions[5]'],
      ]),
    );
    await writeCheckFixture(root, { fixed: true });
    const fixed = await run(['validate', '--lint', '--json', 'totals/evals/evals.json']);
    const fixedRules = JSON.parse(fixed.stdout).files[0].lint.map((warning: { rule: string }) => warning.rule);
    expect(fixedRules.filter((rule: string) => /empty-match|negated-absent|provided-file/.test(rule))).toEqual([]);
  });

  it('refuses a link in a reference folder, naming it (exit 2), and reads nothing through it', async () => {
    const skillDir = await writeCheckFixture(root);
    await symlink('/etc/passwd', join(skillDir, 'evals', 'reference', '1', 'outputs', 'passwd'));
    const result = await run(['check', 'totals', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('evals/reference/1/outputs/passwd: a link; a reference holds plain files');
    expect(result.stdout).toBe('');
  });

  it('refuses a reference folder that leaves the skill, naming the evals file and the case (exit 2)', async () => {
    const skillDir = await writeCheckFixture(root);
    const evalsPath = join(skillDir, 'evals', 'evals.json');
    const evals = JSON.parse(await readFile(evalsPath, 'utf8'));
    evals.evals[0].reference = { response: 'x', files: '../../' };
    await import('node:fs/promises').then((fs) => fs.writeFile(evalsPath, JSON.stringify(evals)));
    const result = await run(['check', 'totals']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('evals[0].reference.files');
    expect(result.stderr).toContain('outside the skill folder');
  });
});
