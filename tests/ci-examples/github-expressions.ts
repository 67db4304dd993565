// The part of GitHub Actions' expression language the example workflow uses: context lookups
// (matrix, github, env, secrets, steps), string literals, ==, !=, !, &&, and the status
// functions. Anything else throws, so a workflow that grows past it fails the test loudly
// instead of being run wrongly.
import { isMapping, type Mapping } from './yaml-shapes.js';

export interface ExpressionContext {
  contexts: Mapping;
  /** Whether a step before this one in the job failed. */
  failed: boolean;
}

const statusFunctions = /\b(always|success|failure|cancelled)\(\)/;

function lookup(path: string, context: ExpressionContext): unknown {
  const [head = '', ...rest] = path.split('.');
  if (!(head in context.contexts)) throw new Error(`\${{ ${path} }}: the test does not know the context \`${head}\``);
  let value: unknown = context.contexts[head];
  for (const key of rest) value = isMapping(value) ? value[key] : undefined;
  return value ?? '';
}

function evaluateTerm(term: string, context: ExpressionContext): unknown {
  const expression = term.trim();
  if (expression.startsWith('!')) return !truthy(evaluateTerm(expression.slice(1), context));
  const comparison = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression);
  if (comparison) {
    const [, left = '', operator, right = ''] = comparison;
    const equal = String(evaluateTerm(left, context)) === String(evaluateTerm(right, context));
    return operator === '==' ? equal : !equal;
  }
  const literal = /^'((?:[^']|'')*)'$/.exec(expression);
  if (literal) return (literal[1] ?? '').replaceAll("''", "'");
  if (/^-?\d+(\.\d+)?$/.test(expression)) return Number(expression);
  switch (expression) {
    case 'always()':
      return true;
    case 'cancelled()':
      return false;
    case 'success()':
      return !context.failed;
    case 'failure()':
      return context.failed;
  }
  if (/^[a-z][\w-]*(\.[\w-]+)+$/i.test(expression)) return lookup(expression, context);
  throw new Error(`\${{ ${expression} }}: the test cannot evaluate this expression`);
}

const truthy = (value: unknown) => value !== false && value !== '' && value !== 0 && value !== null;

export function evaluate(expression: string, context: ExpressionContext): unknown {
  const terms = expression.split('&&');
  if (terms.length === 1) return evaluateTerm(expression, context);
  return terms.every((term) => truthy(evaluateTerm(term, context)));
}

/** Replaces each `${{ … }}` in a string with its value, as the runner does before a step runs. */
export function interpolate(value: string, context: ExpressionContext): string {
  return value.replace(/\$\{\{(.+?)\}\}/g, (_, expression: string) => String(evaluate(expression, context)));
}

/** Whether a step runs: `if:` as GitHub reads it (success() unless it names a status function). */
export function stepRuns(condition: string | undefined, context: ExpressionContext): boolean {
  if (condition === undefined) return !context.failed;
  const expression = condition.trim().replace(/^\$\{\{(.+)\}\}$/s, '$1');
  const value = truthy(evaluate(expression, context));
  return statusFunctions.test(expression) ? value : value && !context.failed;
}
