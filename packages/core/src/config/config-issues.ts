import { skevalConfigSchema } from '@skeval/schema';
import {
  type ConfigKey,
  configKeyHelp,
  describeZodIssue,
  didYouMean,
  formatPointer,
  gatesSchema,
  skillConfigSchema,
  valueAt,
} from '@skeval/schema/internal';
import type * as z from 'zod';

/** One problem of a config file: where (a JSON path) and what is wrong, with the fix. */
export interface ConfigIssue {
  path: Array<string | number>;
  message: string;
  /** An unknown key: located at the key rather than its value. */
  atKey?: boolean;
}

/** How examples are written: as JSON (`"concurrency": 4`) or as a JavaScript object (`concurrency: 4`). */
export type ConfigSyntax = 'json' | 'js';

const isConfigKey = (key: string): key is ConfigKey => Object.hasOwn(configKeyHelp, key);

const topLevelKeys = Object.keys(skevalConfigSchema.shape).filter((key) => key !== '$schema');
const gateKeys = Object.keys(gatesSchema.shape);
const skillKeys = Object.keys(skillConfigSchema.shape);

/** Every issue zod found in a config value, in plain words, each with an example of the fix. */
export function describeConfigIssues(error: z.ZodError, value: unknown, syntax: ConfigSyntax): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...path, key],
        message: unknownKeyMessage(path, key),
        atKey: true,
      }));
    }
    const found = valueAt(value, path);
    const key = keyOf(path);
    const where = formatPointer(path);
    if (!key) return [{ path, message: `${where ? `${where}: ` : ''}${describeZodIssue(issue, found)}` }];
    const help = configKeyHelp[key];
    return [
      {
        path,
        message: `${where}: expected ${help.expected}, got ${describeValue(found)}; for example ${exampleOf(key, syntax)}`,
      },
    ];
  });
}

/** A problem found after the schema (a reporter name), in the same words. */
export function configIssue(path: Array<string | number>, problem: string, syntax: ConfigSyntax): ConfigIssue {
  const key = keyOf(path);
  return { path, message: `${formatPointer(path)}: ${problem}${key ? `; for example ${exampleOf(key, syntax)}` : ''}` };
}

/** The key whose help explains the value at `path`: its last named segment (a skill's name means `skills`). */
function keyOf(path: ReadonlyArray<string | number>): ConfigKey | undefined {
  if (path[0] === 'skills' && path.length === 2) return 'skills';
  const named = path.filter((segment): segment is string => typeof segment === 'string');
  const last = named[named.length - 1];
  return last !== undefined && isConfigKey(last) ? last : undefined;
}

function unknownKeyMessage(path: ReadonlyArray<string | number>, key: string): string {
  const where = formatPointer([...path, key]);
  if (path[0] === 'skills' && path.length === 2) {
    if (topLevelKeys.includes(key)) {
      return `${where}: \`${key}\` cannot be set for one skill: one agent, judge and sandbox serve a whole run, so only ${skillKeys.join(' and ')} can differ by skill; set \`${key}\` at the top level, or run this skill with a config of its own (--config <file>)`;
    }
    return `${where}: unknown key \`${key}\`${didYouMean(key, skillKeys)}; a skill's entry takes ${skillKeys.join(' and ')}`;
  }
  const known = path[path.length - 1] === 'gates' ? gateKeys : topLevelKeys;
  return `${where}: unknown key \`${key}\`${didYouMean(key, known)}; the keys are ${known.join(', ')} (docs/config.md)`;
}

function exampleOf(key: ConfigKey, syntax: ConfigSyntax): string {
  const { example } = configKeyHelp[key];
  return syntax === 'json' ? `"${key}": ${example}` : `${key}: ${example}`;
}

/** A value as a message quotes it: `the string "four"`, `0`, `a list`. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 39)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : typeof value;
}
