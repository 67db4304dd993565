import type { CaseRunOutcome } from '@skeval/run-folder';
import type { AssertionResult } from '@skeval/schema';
import type { RunReport, SkillRun } from '../run/run-report.js';
import { assertionLabel, hasArmsOrTrials } from './case-runs.js';

/**
 * The `junit` reporter: JUnit XML as Jenkins, GitLab, Azure DevOps and the test-report actions
 * read it (it validates against Jenkins' junit-4.xsd). One `<testsuite>` per skill, one
 * `<testcase>` per assertion per case run, `classname` = `skill.case[.arm.run-n]`; a failed
 * assertion is a `<failure>`, an errored one an `<error>`, a skipped one `<skipped>`, each with
 * its evidence. A case run whose agent failed before any assertion is one `<error>` test case.
 * `<testsuites>` sums `tests`, `failures`, `errors` and `skipped` over the suites: readers that
 * take the totals from it (test-results-parser, the test-report actions) count skips as skips.
 * Jenkins' schema has no `skipped` on `<testsuites>`; Jenkins ignores it (docs/decisions/0060).
 */
export function renderJunitReport(report: RunReport): string {
  const suites = report.runs.map(suiteOf);
  const sum = (pick: (suite: Suite) => number) => suites.reduce((total, suite) => total + pick(suite), 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({
      name: 'skeval',
      tests: sum((suite) => suite.tests),
      failures: sum((suite) => suite.failures),
      errors: sum((suite) => suite.errors),
      skipped: sum((suite) => suite.skipped),
      time: seconds(sum((suite) => suite.timeMs)),
    })}>`,
  ];
  for (const suite of suites) lines.push(...suite.lines);
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

interface Suite {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  timeMs: number;
  lines: string[];
}

function suiteOf(run: SkillRun): Suite {
  const nested = hasArmsOrTrials(run);
  const cases = run.outcomes.flatMap((outcome) => testCasesOf(run.skill, outcome, nested));
  const count = (kind: TestCase['kind']) => cases.filter((entry) => entry.kind === kind).length;
  const timeMs = run.outcomes.reduce((total, outcome) => total + outcome.durationMs, 0);
  const suite = {
    tests: cases.length,
    failures: count('failure'),
    errors: count('error'),
    skipped: count('skipped'),
    timeMs,
  };
  const lines = [
    `  <testsuite${attributes({
      name: run.skill,
      tests: suite.tests,
      failures: suite.failures,
      errors: suite.errors,
      skipped: suite.skipped,
      time: seconds(timeMs),
      ...(run.benchmark ? { timestamp: run.benchmark.metadata.timestamp } : {}),
    })}>`,
    '    <properties>',
    `      <property${attributes({ name: 'run_dir', value: run.runDir })}/>`,
    '    </properties>',
    ...cases.map(renderTestCase),
    '  </testsuite>',
  ];
  return { ...suite, lines };
}

interface TestCase {
  name: string;
  classname: string;
  timeMs: number;
  kind: 'pass' | 'failure' | 'error' | 'skipped';
  /** What a test that did not pass says (a pass says nothing: most of a big run's tests are passes). */
  detail?: { message: string; body: string };
}

function testCasesOf(skill: string, outcome: CaseRunOutcome, nested: boolean): TestCase[] {
  // Dots separate the parts of a classname (CI tools group by them), so none inside a part.
  const part = (text: string) => text.replace(/\./g, '_');
  const classname = [skill, outcome.caseId, ...(nested ? [outcome.arm, `run-${outcome.runNumber}`] : [])]
    .map(part)
    .join('.');
  const rows = outcome.grading.assertion_results;
  if (rows.length === 0 && outcome.error) {
    return [
      {
        name: 'agent run',
        classname,
        timeMs: outcome.durationMs,
        kind: 'error',
        detail: {
          message: `${outcome.error.code}: ${outcome.error.message}`,
          body: `${outcome.error.message}\ncase run: ${outcome.caseDir}`,
        },
      },
    ];
  }
  const seen = new Map<string, number>();
  return rows.map((row) => {
    // Two assertions with one text would read as one test to a CI tool: number the later ones.
    const label = assertionLabel(row);
    const times = (seen.get(label) ?? 0) + 1;
    seen.set(label, times);
    const kind = kindOf(row);
    const test = { name: times > 1 ? `${label} (${times})` : label, classname, timeMs: row.duration_ms ?? 0, kind };
    if (kind === 'pass') return test;
    const detail = {
      message: row.evidence.split('\n', 1)[0]?.slice(0, 500) ?? '',
      body: [
        `assertion: ${label}`,
        `evidence: ${row.evidence}`,
        ...(row.grader ? [`grader: ${row.grader}`] : []),
        ...(outcome.error ? [`agent: ${outcome.status} (${outcome.error.code}): ${outcome.error.message}`] : []),
        `case run: ${outcome.caseDir}`,
      ].join('\n'),
    };
    return { ...test, detail };
  });
}

function kindOf(row: AssertionResult): TestCase['kind'] {
  if (row.status === 'pass') return 'pass';
  if (row.status === 'fail') return 'failure';
  return row.status === 'error' ? 'error' : 'skipped';
}

/** A test case's lines, as one string. */
function renderTestCase(test: TestCase): string {
  const open = `    <testcase${attributes({ name: test.name, classname: test.classname, time: seconds(test.timeMs) })}`;
  if (test.kind === 'pass' || !test.detail) return `${open}/>`;
  const { message, body } = test.detail;
  // Jenkins' schema gives <skipped> no attributes: the reason is its text.
  const detail =
    test.kind === 'skipped'
      ? `      <skipped>${text(message)}</skipped>`
      : `      <${test.kind}${attributes({ message, type: test.kind === 'failure' ? 'fail' : 'error' })}>${text(body)}</${test.kind}>`;
  return `${open}>\n${detail}\n    </testcase>`;
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
    .join('');
}

// XML 1.0 allows tab, line feed, carriage return and these ranges; nothing else may appear,
// not even escaped (`&#0;` is not well-formed). What is left out is shown as its code.
const forbidden = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const visible = (character: string) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

/** Element text: markup escaped (so `]]>` and `<` are harmless), forbidden characters shown as codes. */
function text(value: string): string {
  return value.replace(forbidden, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value: as element text, with quotes, and line breaks and tabs kept (not normalized to spaces). */
function attribute(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
