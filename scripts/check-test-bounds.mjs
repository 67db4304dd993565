// Fails when a test asserts on a duration, a tick count or a memory bound: such a bound flakes on
// a loaded machine and proves less than its name says (STYLE.md, "Tests"). Assert order and
// outcome instead (a fake clock, or what the code reports), and keep performance goals in bench/.
//
// What counts, in every *.test.ts (or the files given as arguments):
// - a comparison matcher (toBeLessThan, toBeGreaterThan, …OrEqual, toBeCloseTo) or a node:assert
//   bound (assert.isBelow, …) whose subject or bound is a measure;
// - any `expect(…)` or `assert(…)` of a `<`, `<=`, `>` or `>=` comparison with a measure in it.
// A measure is a reading of the clock or of memory (Date.now(), performance.now(), new Date(),
// process.hrtime, process.memoryUsage, process.cpuUsage, process.resourceUsage), a variable set from
// one, a counter bumped in a setInterval, setTimeout or setImmediate callback, or a name that says
// it is one (elapsed, duration, ticks, rss, heapUsed, …Ms, …_ms, …Seconds, …_seconds).
// Exact values (toBe, toEqual) are not bounds: under a fake clock they are the point.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { glob } from 'tinyglobby';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const given = process.argv.slice(2);
const files = given.length
  ? given
  : await glob(
      ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tools/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
      {
        cwd: root,
        absolute: true,
        ignore: ['**/node_modules/**', '**/dist/**'],
      },
    );

const comparisonMatchers = new Set([
  'toBeLessThan',
  'toBeLessThanOrEqual',
  'toBeGreaterThan',
  'toBeGreaterThanOrEqual',
  'toBeCloseTo',
]);
const assertBounds = new Set(['isBelow', 'isAbove', 'isAtMost', 'isAtLeast', 'closeTo', 'approximately']);
const comparisonOperators = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);
const measuringNames =
  /^(elapsed\w*|duration\w*|ticks?|tickCount|rss|heapUsed|heapTotal|memoryUsage|millis(econds)?|seconds|ms|\w*[a-z]Ms|\w*_ms|\w*[a-z]Seconds|\w*_seconds)$/;
const clockCalls = new Set([
  'Date.now',
  'performance.now',
  'process.hrtime',
  'process.hrtime.bigint',
  'process.uptime',
]);
const memoryCalls = new Set([
  'process.memoryUsage',
  'process.memoryUsage.rss',
  'process.cpuUsage',
  'process.resourceUsage',
]);
const timerCalls = new Set(['setInterval', 'setTimeout', 'setImmediate']);

const problems = [];
for (const file of files.sort()) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const measured = measuredVariables(source);
  const isMeasure = (node) => {
    let found = false;
    const visit = (child) => {
      if (found) return;
      if (ts.isCallExpression(child) && readsClockOrMemory(child.expression)) found = true;
      else if (ts.isNewExpression(child) && child.expression.getText(source) === 'Date' && !child.arguments?.length)
        found = true;
      else if (ts.isIdentifier(child) && (measured.has(child.text) || measuringNames.test(child.text))) found = true;
      else ts.forEachChild(child, visit);
    };
    visit(node);
    return found;
  };
  const report = (node, what) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const text = source.text.split('\n')[line]?.trim() ?? '';
    problems.push(`${relative(root, file)}:${line + 1}:${character + 1}: ${what}: ${text}`);
  };
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      // expect(subject)….toBeLessThan(bound)
      if (ts.isPropertyAccessExpression(callee) && comparisonMatchers.has(callee.name.text)) {
        const subject = expectSubject(callee.expression);
        if (subject && (isMeasure(subject) || node.arguments.some(isMeasure)))
          report(node, `bounds a measure with ${callee.name.text}`);
      }
      // assert.isBelow(measure, bound)
      if (
        ts.isPropertyAccessExpression(callee) &&
        assertBounds.has(callee.name.text) &&
        callee.expression.getText(source) === 'assert' &&
        node.arguments.some(isMeasure)
      )
        report(node, `bounds a measure with assert.${callee.name.text}`);
      // expect(elapsed < 2000)…, assert(elapsed < 2000), assert.ok(elapsed < 2000)
      const name = callee.getText(source);
      if (['expect', 'expect.soft', 'assert', 'assert.ok', 'assert.isTrue', 'assert.isFalse'].includes(name)) {
        const [first] = node.arguments;
        if (first && isComparison(first) && isMeasure(first)) report(node, 'asserts a comparison of a measure');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(
    `\n${problems.length} assertion${problems.length === 1 ? '' : 's'} on a duration, a tick count or a memory bound. ` +
      'Assert order and outcome instead (vi.useFakeTimers for time, or what the code reports, such as "timed out"), ' +
      'and move a performance goal into bench/.',
  );
  process.exitCode = 1;
} else console.log(`test bounds: no test in ${files.length} files asserts a duration, a tick count or a memory bound`);

/** `Date.now`, `performance.now`, `process.memoryUsage`, … (also through `globalThis.`). */
function readsClockOrMemory(callee) {
  const name = callee.getText().replace(/^globalThis\./, '');
  return clockCalls.has(name) || memoryCalls.has(name);
}

/** The argument of the `expect(…)` at the start of a matcher chain (through `.not`, `.resolves`, …). */
function expectSubject(node) {
  let current = node;
  while (ts.isPropertyAccessExpression(current)) current = current.expression;
  if (!ts.isCallExpression(current)) return undefined;
  const name = current.expression.getText();
  return name === 'expect' || name === 'expect.soft' ? current.arguments[0] : undefined;
}

function isComparison(node) {
  let found = false;
  const visit = (child) => {
    if (found) return;
    if (ts.isBinaryExpression(child) && comparisonOperators.has(child.operatorToken.kind)) found = true;
    else if (!ts.isFunctionLike(child)) ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/**
 * Names in the file that hold a measure: set from a clock or memory reading (or from another
 * such name), or bumped inside a timer callback (a tick counter).
 */
function measuredVariables(source) {
  const names = new Set();
  const readsMeasure = (node) => {
    let found = false;
    const visit = (child) => {
      if (found) return;
      if (ts.isCallExpression(child) && readsClockOrMemory(child.expression)) found = true;
      else if (ts.isNewExpression(child) && child.expression.getText() === 'Date' && !child.arguments?.length)
        found = true;
      else if (ts.isIdentifier(child) && names.has(child.text)) found = true;
      else if (!ts.isFunctionLike(child)) ts.forEachChild(child, visit);
    };
    visit(node);
    return found;
  };
  const bumped = (node) => {
    if ((ts.isPostfixUnaryExpression(node) || ts.isPrefixUnaryExpression(node)) && ts.isIdentifier(node.operand))
      return node.operand.text;
    if (
      ts.isBinaryExpression(node) &&
      [ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.MinusEqualsToken].includes(node.operatorToken.kind) &&
      ts.isIdentifier(node.left)
    )
      return node.left.text;
    return undefined;
  };
  // Two passes, so that a name set from another measured name counts wherever it is declared.
  for (let pass = 0; pass < 2; pass += 1) {
    const visit = (node, inTimer) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        readsMeasure(node.initializer)
      )
        names.add(node.name.text);
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isIdentifier(node.left) &&
        readsMeasure(node.right)
      )
        names.add(node.left.text);
      const counter = inTimer ? bumped(node) : undefined;
      if (counter) names.add(counter);
      const timer =
        ts.isCallExpression(node) && timerCalls.has(node.expression.getText(source).replace(/^globalThis\./, ''));
      ts.forEachChild(node, (child) => visit(child, inTimer || (timer && ts.isFunctionLike(child))));
    };
    visit(source, false);
  }
  return names;
}
