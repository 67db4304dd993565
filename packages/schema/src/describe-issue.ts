import type * as z from 'zod';

/** The name of a JSON value's type, as people say it. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

const expectedNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  record: 'an object',
  never: 'absent',
};

/** A plain-words message for one zod issue, given the value it is about (undefined when absent). */
export function describeZodIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const key = issue.path.length > 0 ? `\`${String(issue.path[issue.path.length - 1])}\`` : 'the value';
  switch (issue.code) {
    case 'invalid_type': {
      const expected = expectedNames[issue.expected] ?? issue.expected;
      if (value === undefined) return `${key} is required (${expected})`;
      return `${key} must be ${expected}, got ${jsonTypeName(value)}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return issue.message.startsWith('Too small') ? `${key} is empty` : issue.message;
      if (issue.origin === 'array')
        return issue.message.startsWith('Too small')
          ? `${key} needs at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}`
          : issue.message;
      return `${key} must be at least ${issue.minimum}, got ${JSON.stringify(value)}`;
    case 'too_big':
      return `${key} must be at most ${issue.maximum}, got ${JSON.stringify(value)}`;
    case 'invalid_value':
      return `${key} must be ${issue.values.map((allowed) => JSON.stringify(allowed)).join(' or ')}, got ${JSON.stringify(value)}`;
    case 'invalid_format':
      if (issue.format === 'regex' && !issue.message.startsWith('Invalid')) return issue.message;
      return `${key} is not in the expected format`;
    case 'invalid_union':
      return value === undefined ? `${key} is required` : `${key} does not match any accepted form`;
    default:
      return issue.message;
  }
}

/** Renders a JSON path as `evals[3].assertions[1].pattern`. */
export function formatPointer(path: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const segment of path) {
    if (typeof segment === 'number') pointer += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) pointer += pointer ? `.${segment}` : segment;
    else pointer += `[${JSON.stringify(segment)}]`;
  }
  return pointer;
}

/**
 * Every problem a zod schema found with `value`, each as `path: what is wrong` in plain words
 * (`summary.total: \`total\` must be a number, got a string`), for messages about files.
 */
export function describeSchemaIssues(error: z.ZodError, value: unknown): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    const where = formatPointer(path);
    return `${where ? `${where}: ` : ''}${describeZodIssue(issue, valueAt(value, path))}`;
  });
}

/** The value at a JSON path, or undefined where the path leads nowhere. */
export function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Reflect.get(current, segment);
  }
  return current;
}
