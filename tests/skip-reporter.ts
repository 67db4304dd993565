import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/** Marks an instance, from whichever copy of this module made it (vitest loads its config once per project). */
const marker: unique symbol = Symbol.for('skeval.skip-reporter');

/**
 * Lists every skipped test after the summary, one line each: its file, its name and why it was
 * skipped. A test that skips says why in its own name (`… (skipped: bubblewrap does not work
 * here)`) or in `context.skip('skipped: …')`; one that does not is listed as giving no reason.
 * In a run filtered by name (`-t`), the tests the filter left out are not listed.
 */
export class SkipReporter implements Reporter {
  readonly [marker] = true;
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const filtered = Boolean(this.vitest?.config.testNamePattern);
    const lines: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests('skipped')) {
        const { titles, reason } = skipOf(test);
        if (!reason && filtered) continue;
        const why =
          reason ??
          (test.options.mode === 'todo'
            ? 'a todo'
            : suiteFailed(test)
              ? 'not run: its suite failed first (see the errors above)'
              : 'NO REASON GIVEN: say why in the name');
        lines.push(`   ↓ ${[testModule.relativeModuleId, ...titles].join(' > ')} — ${why}`);
      }
    }
    if (lines.length === 0) return;
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text));
    log(`\n Skipped ${lines.length} test${lines.length === 1 ? '' : 's'}:`);
    for (const line of lines) log(line);
  }
}

/** A skipped test's titles (suites first) without the skip reasons in them, and its reason. */
function skipOf(test: TestCase): { titles: string[]; reason: string | undefined } {
  const titles: string[] = [];
  let reason: string | undefined;
  for (let node: TestCase | TestModule | TestCase['parent'] = test; node.type !== 'module'; node = node.parent) {
    const split = splitReason(node.name);
    titles.unshift(split.title);
    reason ??= split.reason;
  }
  const result = test.result();
  const note = result.state === 'skipped' ? result.note : undefined;
  return { titles, reason: note ? note.replace(/^skipped: /, '') : reason };
}

/** Whether a suite around the test failed (a `beforeAll` that threw, say), so that it never ran. */
function suiteFailed(test: TestCase): boolean {
  for (let node: TestCase['parent'] = test.parent; ; node = node.parent) {
    if (node.state() === 'failed') return true;
    if (node.type === 'module') return false;
  }
}

/** `copies … (skipped: /dev/shm is not …)` → the title and the reason. */
function splitReason(title: string): { title: string; reason?: string } {
  const match = /\s*(\(?)skipped: (.*)$/.exec(title);
  if (!match) return { title };
  const [, parenthesis, rest = ''] = match;
  const reason = parenthesis && rest.endsWith(')') ? rest.slice(0, -1) : rest;
  return { title: title.slice(0, match.index), reason };
}

/** Whether a configured reporter is a SkipReporter. */
export function isSkipReporter(reporter: unknown): boolean {
  return typeof reporter === 'object' && reporter !== null && marker in reporter;
}
