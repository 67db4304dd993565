import type { GraderResult } from '@skeval/schema';
import { outputIntentSchemas } from '@skeval/schema/internal';
import { type RegexRunner, runRegex } from '../regex/regex-runner.js';
import { defineBuiltInGrader, verdict } from '../registry/grader.js';
import { describePattern, describeSearched, inContext, messageOf, position, quote, settle } from './evidence.js';

const listOf = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

export const outputRegex = defineBuiltInGrader({
  name: 'output-regex',
  description: 'The response matches a regular expression.',
  reads: ['output'],
  schema: () => outputIntentSchemas.regex,
  grade: ({ config, output, regex }) => gradeResponseRegex(regex, output, config.pattern, config.flags),
});

/** The response against a regular expression: shared by `output-regex` and `regex-match`. */
export async function gradeResponseRegex(
  regex: RegexRunner,
  output: string,
  pattern: string,
  flags?: string,
): Promise<GraderResult> {
  const text = `response matches ${describePattern(pattern, flags)}`;
  const outcome = await runRegex(regex, { pattern, flags, text: output });
  const found = settle(outcome, pattern, flags);
  if (found.status === 'no-match')
    return verdict(text, false, `no match in ${describeSearched('the response', output)}`);
  return verdict(
    text,
    true,
    `found ${quote(found.match)} at ${position(output, found.index)} of the response: ${inContext(output, found.index, found.match.length)}`,
  );
}

export const outputExact = defineBuiltInGrader({
  name: 'output-exact',
  description: 'The response equals an expected text (trimmed; optionally ignoring case).',
  reads: ['output'],
  schema: () => outputIntentSchemas.exact,
  grade({ config, output }) {
    const normalize = (value: string) => {
      const trimmed = config.trim === false ? value : value.trim();
      return config.ignoreCase ? trimmed.toLowerCase() : trimmed;
    };
    const [actual, expected] = [normalize(output), normalize(config.value)];
    const text = `response equals ${quote(config.value, 60)}`;
    if (actual === expected) return verdict(text, true, `the response is exactly ${quote(actual)}`);
    let at = 0;
    while (at < actual.length && actual[at] === expected[at]) at += 1;
    return verdict(
      text,
      false,
      `the response differs at character ${at + 1}: expected ${quote(expected.slice(at, at + 40))}, got ${quote(actual.slice(at, at + 40))} (${actual.length} vs ${expected.length} characters)`,
    );
  },
});

function containsGrader(name: 'output-contains' | 'output-icontains', ignoreCase: boolean) {
  return defineBuiltInGrader({
    name,
    description: ignoreCase
      ? 'The response contains the given texts, ignoring case.'
      : 'The response contains the given texts.',
    reads: ['output'],
    schema: () => outputIntentSchemas[ignoreCase ? 'icontains' : 'contains'],
    grade({ config, output }) {
      const values = listOf(config.value);
      const any = config.match === 'any';
      const haystack = ignoreCase ? output.toLowerCase() : output;
      const found = values.map((value) => ({
        value,
        index: haystack.indexOf(ignoreCase ? value.toLowerCase() : value),
      }));
      const present = found.filter((entry) => entry.index !== -1);
      const passed = any ? present.length > 0 : present.length === values.length;
      const text =
        `response contains ${any ? 'any of' : values.length > 1 ? 'all of' : ''} ${values.map((value) => quote(value, 40)).join(', ')}`.replace(
          '  ',
          ' ',
        );
      const parts = found.map(({ value, index }) =>
        index === -1 ? `${quote(value, 40)} not found` : `${quote(value, 40)} at ${position(output, index)}`,
      );
      return verdict(text, passed, `${parts.join('; ')} in ${describeSearched('the response', output)}`);
    },
  });
}

export const outputContains = containsGrader('output-contains', false);
export const outputIcontains = containsGrader('output-icontains', true);

export const outputNotContains = defineBuiltInGrader({
  name: 'output-not-contains',
  description: 'The response contains none of the given texts.',
  reads: ['output'],
  schema: () => outputIntentSchemas['not-contains'],
  grade({ config, output }) {
    const values = listOf(config.value);
    const haystack = config.ignoreCase ? output.toLowerCase() : output;
    const hits = values
      .map((value) => ({ value, index: haystack.indexOf(config.ignoreCase ? value.toLowerCase() : value) }))
      .filter((entry) => entry.index !== -1);
    const text = `response does not contain ${values.map((value) => quote(value, 40)).join(', ')}`;
    if (hits.length === 0)
      return verdict(
        text,
        true,
        `none of ${values.length} value${values.length === 1 ? '' : 's'} found in ${describeSearched('the response', output)}`,
      );
    return verdict(
      text,
      false,
      hits
        .map(
          ({ value, index }) =>
            `${quote(value, 40)} found at ${position(output, index)}: ${inContext(output, index, value.length)}`,
        )
        .join('; '),
    );
  },
});

export const outputLength = defineBuiltInGrader({
  name: 'output-length',
  description: 'The response is within a length, in words or characters.',
  reads: ['output'],
  schema: () => outputIntentSchemas.length,
  grade({ config, output }) {
    const unit = config.unit ?? 'words';
    const size = unit === 'words' ? output.split(/\s+/).filter(Boolean).length : [...output].length;
    const bounds = [
      config.min === undefined ? '' : `at least ${config.min}`,
      config.max === undefined ? '' : `at most ${config.max}`,
    ]
      .filter(Boolean)
      .join(' and ');
    const passed = (config.min === undefined || size >= config.min) && (config.max === undefined || size <= config.max);
    return verdict(`response is ${bounds} ${unit}`, passed, `the response has ${size} ${unit}; required ${bounds}`);
  },
});

export const outputJsonValid = defineBuiltInGrader({
  name: 'output-json-valid',
  description: 'The response is valid JSON.',
  reads: ['output'],
  schema: () => outputIntentSchemas['json-valid'],
  grade({ output }) {
    const text = 'response is valid JSON';
    try {
      const value: unknown = JSON.parse(output);
      return verdict(text, true, `the response parses as ${describeJsonValue(value)}`);
    } catch (error) {
      return verdict(text, false, `the response is not JSON: ${messageOf(error)} (${output.length} characters)`);
    }
  },
});

/** `an object with 3 keys`, `an array of 2 items`, `a string`. */
export function describeJsonValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    return `an object with ${keys.length} key${keys.length === 1 ? '' : 's'}${keys.length ? ` (${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''})` : ''}`;
  }
  return `a ${typeof value}`;
}
