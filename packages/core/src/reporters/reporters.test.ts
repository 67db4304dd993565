import type { CaseRunOutcome } from '@skeval/run-folder';
import type { TriggerRun } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { renderReport, reporterNames } from './render-report.js';
import type { ReporterOutput } from './reporter.js';
import * as reporters from './reporters.js';

/** An output that keeps what is written, on a clock that moves 1.5 s per reading. */
function recorded(options: Partial<ReporterOutput> = {}) {
  const written: string[] = [];
  let clock = 0;
  const output: ReporterOutput = {
    write: (text) => written.push(text),
    now: () => {
      clock += 1500;
      return clock;
    },
    ...options,
  };
  return { output, written };
}

const outcome: CaseRunOutcome = {
  skill: 'greeting',
  caseId: 'named-ada',
  arm: 'with_skill',
  runNumber: 1,
  caseDir: '/runs/greeting/eval-named-ada',
  status: 'ok',
  grading: {
    case_id: 'named-ada',
    assertion_results: [],
    expectations: [],
    summary: { passed: 2, failed: 1, errored: 0, skipped: 1, total: 4, pass_rate: 0.5 },
  },
  durationMs: 200,
  skillEdited: false,
};

describe('the reporters', () => {
  it('each have a name of their own and a render; the terminal and triggers reporters a live part', () => {
    const all = Object.entries(reporters).flatMap(([key, value]) =>
      key !== 'runReporters' && typeof value === 'object' && value !== null && 'render' in value ? [value] : [],
    );
    expect(all).toHaveLength(11);
    expect(new Set(all.map((reporter) => reporter.name)).size).toBe(all.length);
    expect(all.filter((reporter) => 'live' in reporter).map((reporter) => reporter.name)).toEqual([
      'terminal',
      'triggers',
    ]);
  });

  it('are the ones --reporter names, each under its own name', () => {
    expect(Object.keys(reporters.runReporters)).toEqual([...reporterNames]);
    for (const name of reporterNames) expect(reporters.runReporters[name].name).toBe(name);
  });

  it('renderReport renders what the named reporter renders', () => {
    const report = { runs: [], invalid: [], interrupted: false, totals: totals() };
    for (const name of reporterNames)
      expect(renderReport(name, report, { cwd: '/work' })).toBe(
        reporters.runReporters[name].render(report, { cwd: '/work' }),
      );
  });
});

function totals() {
  return { cases: 0, passed: 0, failed: 0, errored: 0, skipped: 0, agentErrors: 0, skillEdits: 0 };
}

describe("the terminal reporter's live part, the progress line", () => {
  it('writes a line per finished case run, skipped assertions apart, with the time elapsed', () => {
    const { output, written } = recorded();
    const onEvent = reporters.terminalReporter.live(output);
    onEvent({ type: 'run-start', caseRuns: 2, nested: false, agent: 'command', runDirs: ['/runs/greeting/r1'] });
    onEvent({ type: 'case-start', skill: 'greeting', caseId: 'named-ada', arm: 'with_skill', runNumber: 1 });
    onEvent({ type: 'case-end', outcome });
    // Not a terminal: no status line; a start line, then the finished case run (the clock read once at the start, once here).
    expect(written).toEqual([
      'skeval: starting 2 case runs with agent command into /runs/greeting/r1\n',
      '[1/2] greeting named-ada: 2/3 passed, 1 skipped (0.2 s) · 2 s elapsed, ~2 s left\n',
    ]);
  });

  it('on a terminal, keeps a status line of the running case runs under the finished ones', () => {
    const { output, written } = recorded({ isTTY: true, width: 80 });
    const onEvent = reporters.terminalReporter.live(output);
    onEvent({ type: 'run-start', caseRuns: 2, nested: false, agent: 'command', runDirs: ['/runs/greeting/r1'] });
    onEvent({ type: 'case-start', skill: 'greeting', caseId: 'named-ada', arm: 'with_skill', runNumber: 1 });
    // A terminal has the live line: no start line.
    expect(written).toEqual(['\r\x1b[K', '0/2 done · running 1: greeting named-ada · 2 s elapsed']);
  });
});

describe("the triggers reporter's live part", () => {
  it('writes errored runs and notes as lines, and counts the runs done only on a terminal', () => {
    const plain = recorded();
    const onPlain = reporters.triggersReporter.live(plain.output);
    const run: TriggerRun = {
      run: 1,
      status: 'triggered',
      loaded: ['greeting'],
      fired: 'greeting',
      stopped: null,
      tool_calls: 1,
      tokens: 10,
      duration_ms: 10,
    };
    onPlain({ type: 'note', message: 'one skill has no trigger set' });
    onPlain({ type: 'query-run', skill: 'greeting', queryId: 'q1', run });
    expect(plain.written).toEqual(['note: one skill has no trigger set\n']);
    const terminal = recorded({ isTTY: true });
    reporters.triggersReporter.live(terminal.output)({ type: 'query-run', skill: 'greeting', queryId: 'q1', run });
    expect(terminal.written).toEqual(['\r\x1b[Kgreeting: 1 run done']);
  });
});
