import { execFileSync, spawnSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'test-results-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFlags, createReportProject } from './__fixtures__/report-fixture.js';
import { runCli } from './__fixtures__/run-cli.js';

const schema = new URL('./__fixtures__/jenkins-junit.xsd', import.meta.url).pathname;
// xmllint comes with Debian's libxml2-utils, which .ci/run installs: in CI these tests never skip.
const xmllint = spawnSync('xmllint', ['--version']).status === 0;
const skipReason =
  xmllint || process.env.CI ? undefined : '(skipped: xmllint is not installed; apt-get install libxml2-utils)';
const skipNote = skipReason ? ` ${skipReason}` : '';

let root: string;
let report: string;
let xml: string;

/** `xmllint --schema` on a file: its exit status and what it said. */
function validate(file: string) {
  const result = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * A copy of a report without `<testsuites skipped>`, the one attribute Jenkins' schema has no
 * place for (Jenkins ignores it; docs/decisions/0060): everything else is checked by the schema.
 */
async function withoutTotalSkipped(file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  const copy = `${file}.jenkins.xml`;
  const stripped = text.replace(/^(<testsuites [^>]*?) skipped="\d+"/m, '$1');
  expect(stripped).not.toBe(text);
  await writeFile(copy, stripped);
  return copy;
}

/** An XPath expression's string value in the report, as xmllint reads it. */
const xpath = (expression: string) =>
  execFileSync('xmllint', ['--xpath', `string(${expression})`, report], { encoding: 'utf8' }).replace(/\n$/, '');

beforeAll(async () => {
  root = await createReportProject();
  if (skipReason) return;
  // Both skills, two runs each: passes, failures, an errored grader, a crashed agent, a skipped
  // judged claim, hostile text in an answer and in an assertion.
  const ran = await runCli(root, [
    'run',
    '.',
    ...agentFlags(root),
    '--output-dir',
    'out',
    '--runs',
    '2',
    '--reporter',
    'junit:reports/junit.xml',
  ]);
  expect(ran.code).toBe(3);
  // The file reporter leaves the terminal report on stdout.
  expect(ran.stdout).toMatch(/\nAssertions {2}/);
  report = join(root, 'reports', 'junit.xml');
  xml = await readFile(report, 'utf8');
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe.skipIf(skipReason !== undefined)(`the junit reporter${skipNote}`, () => {
  it("validates against Jenkins' JUnit schema, with a pass, a failure, an error and a skip", async () => {
    const copy = await withoutTotalSkipped(report);
    expect(validate(copy)).toEqual({ status: 0, output: `${copy} validates\n` });
    // The report itself is refused for that attribute alone.
    expect(validate(report).output).toMatch(/testsuites', attribute 'skipped': The attribute 'skipped' is not allowed/);
    for (const element of ['<failure ', '<error ', '<skipped>']) expect(xml).toContain(element);
    expect(xml).toMatch(
      /<testcase name="file-exists path=greeting.txt" classname="reports.1.with_skill.run-1" time="[\d.]+"\/>/,
    );
  });

  it('is checked by a validator that rejects what the schema does not allow', async () => {
    // The same report with an attribute Jenkins' schema has no place for.
    const broken = join(root, 'reports', 'broken.xml');
    await writeFile(broken, xml.replace('<skipped>', '<skipped message="x">'));
    const result = validate(broken);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/attribute 'message' is not allowed/);
  });

  it('counts one test case per assertion per case run, in a suite per skill', () => {
    // reports: 3 cases (1 + 4 + 1 assertions) × 2 runs; long: 2 cases (2 + 25) × 2 runs.
    expect(xpath('/testsuites/@tests')).toBe(String(2 * 6 + 2 * 27));
    expect(xpath('/testsuites/@skipped')).toBe('2');
    expect(xpath('/testsuites/@errors')).toBe('4');
    expect(xpath('/testsuites/@failures')).toBe(String(4 + 2 * 26));
    expect(xpath('/testsuites/testsuite[@name="reports"]/@tests')).toBe('12');
    expect(xpath('/testsuites/testsuite[@name="reports"]/@failures')).toBe('4');
    // A crashed agent (2 runs) and a crashed grader (2 runs).
    expect(xpath('/testsuites/testsuite[@name="reports"]/@errors')).toBe('4');
    expect(xpath('/testsuites/testsuite[@name="reports"]/@skipped')).toBe('2');
    expect(xpath('/testsuites/testsuite[@name="long"]/@failures')).toBe(String(2 * 26));
    expect(xpath('count(//testcase[@classname="reports.crashes.with_skill.run-2"]/error)')).toBe('1');
    expect(xpath('//testcase[@classname="reports.crashes.with_skill.run-2"]/error')).toMatch(
      /agent: error \(agent_failed\): node exited with code 1; stderr: segfault simulated/,
    );
  });

  it('is read by test-results-parser with skips counted as skipped, not passed', () => {
    const parsed = parse({ type: 'junit', files: [report] });
    // 66 test cases: 2 skipped, 4 errors, 56 failures and 4 passes; the parser's total leaves skips out.
    expect({
      total: parsed.total,
      passed: parsed.passed,
      failed: parsed.failed,
      errors: parsed.errors,
      skipped: parsed.skipped,
    }).toEqual({ total: 64, passed: 4, failed: 56, errors: 4, skipped: 2 });
    const statuses = parsed.suites.flatMap((suite) => suite.cases.map((entry) => entry.status));
    expect(statuses.filter((status) => status === 'SKIP')).toHaveLength(2);
    expect(statuses.filter((status) => status === 'PASS')).toHaveLength(4);
  });

  it('carries hostile evidence and assertion text as text: ]]>, markup, quotes, NUL and ESC', () => {
    const evidence = xpath('//testcase[@name="echo-answer"][starts-with(@classname, "reports.")][1]/failure');
    expect(evidence).toContain(`evidence: ]]> <b>bold</b> & "double" 'single' \\u0000 nul \\u001b[31mred`);
    expect(xpath('//testcase[@name="echo-answer"][starts-with(@classname, "reports.")][1]/failure/@message')).toContain(
      `]]> <b>bold</b> & "double" 'single'`,
    );
    // The judged claim keeps its text in the name: the line break, the lone surrogate shown as a code.
    const skipped = xpath('//testcase[skipped][contains(@name, "A prose claim")][1]/@name');
    expect(skipped).toBe(
      `A prose claim ]]> <b>bold</b> & "double" 'single' \\u0000 nul \\u001b[31mred\\u001b[0m 100% a:b,c \n::error::x \\ud800 \\ufffe`,
    );
    // Nothing XML 1.0 forbids is in the file, escaped or not.
    const forbidden = [...xml].filter((character) => {
      const code = character.codePointAt(0) ?? 0;
      return (code < 0x20 && code !== 0x9 && code !== 0xa && code !== 0xd) || (code >= 0xd800 && code <= 0xdfff);
    });
    expect(forbidden).toEqual([]);
    expect(xml).not.toMatch(/&#x?0+;/);
  });
});

describe.skipIf(skipReason !== undefined)(`skeval grade --reporter junit${skipNote}`, () => {
  it('writes the same kind of report for a re-grade', async () => {
    const [runId = ''] = (await readdir(join(root, 'out', 'reports'))).sort();
    const graded = await runCli(root, [
      'grade',
      join(root, 'out', 'reports', runId),
      '--reporter',
      'junit:regraded.xml',
    ]);
    expect(graded.code).toBe(3);
    expect(validate(await withoutTotalSkipped(join(root, 'regraded.xml'))).status).toBe(0);
  });
});
