import * as z from 'zod';
import { lazyValues } from '../lazy.js';
import { relativePathSchema } from '../relative-path.js';
import { assertionLabelFields, patternSchema, regexFlagsSchema } from './common.js';

const stringOrList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const count = z.number().int().nonnegative();

function intent<Kind extends string, Method extends string, Shape extends z.ZodRawShape>(
  kind: Kind,
  method: Method,
  shape: Shape,
) {
  return z.looseObject({ ...assertionLabelFields, kind: z.literal(kind), method: z.literal(method), ...shape });
}

const atLeastOne = (keys: string[]) => (value: Record<string, unknown>) => keys.some((key) => value[key] !== undefined);

/** Assertions about the final response. */
export const outputIntentSchemas = lazyValues({
  judge: () =>
    intent('output', 'judge', {
      prompt: z.string().min(1).optional().meta({ description: 'The claim the judge decides (or use `text`).' }),
      rubric: z.string().min(1).optional(),
    }).refine(atLeastOne(['prompt', 'rubric', 'text', 'description']), {
      error: '`output`/`judge` needs the claim to judge in `prompt` (or `text`)',
      path: ['prompt'],
    }),
  regex: () => intent('output', 'regex', { pattern: patternSchema, flags: regexFlagsSchema.optional() }),
  exact: () =>
    intent('output', 'exact', {
      value: z.string(),
      trim: z.boolean().optional().meta({ description: 'Ignore leading and trailing whitespace. @default true' }),
      ignoreCase: z.boolean().optional().meta({ description: '@default false' }),
    }),
  contains: () =>
    intent('output', 'contains', {
      value: stringOrList,
      match: z
        .enum(['all', 'any'])
        .optional()
        .meta({ description: 'With a list: every value, or at least one. @default "all"' }),
    }),
  icontains: () => intent('output', 'icontains', { value: stringOrList, match: z.enum(['all', 'any']).optional() }),
  'not-contains': () => intent('output', 'not-contains', { value: stringOrList, ignoreCase: z.boolean().optional() }),
  length: () =>
    intent('output', 'length', {
      unit: z.enum(['words', 'characters']).optional().meta({ description: '@default "words"' }),
      min: count.optional(),
      max: count.optional(),
    }).refine(atLeastOne(['min', 'max']), { error: '`output`/`length` needs `min`, `max` or both', path: ['min'] }),
  'json-valid': () => intent('output', 'json-valid', {}),
});

/** Assertions about the files the run left in the workspace. */
export const workspaceIntentSchemas = lazyValues({
  'file-exists': () => intent('workspace', 'file-exists', { path: relativePathSchema }),
  'file-contains': () =>
    intent('workspace', 'file-contains', {
      path: relativePathSchema,
      pattern: patternSchema.optional().meta({ description: 'A regular expression (or give a literal `value`).' }),
      flags: regexFlagsSchema.optional(),
      value: z.string().min(1).optional(),
    }).refine(atLeastOne(['pattern', 'value']), {
      error: '`workspace`/`file-contains` needs a `pattern` (regular expression) or a literal `value`',
      path: ['pattern'],
    }),
  'json-valid': () =>
    intent('workspace', 'json-valid', {
      path: relativePathSchema,
      schema: z
        .union([relativePathSchema, z.record(z.string(), z.unknown())])
        .optional()
        .meta({ description: 'A JSON Schema (inline, or a path in the skill folder) the file must satisfy.' }),
    }),
  'snapshot-diff': () =>
    intent('workspace', 'snapshot-diff', {
      expected: relativePathSchema.meta({ description: "The expected folder, relative to the skill's evals/ folder." }),
      path: relativePathSchema.optional().meta({ description: 'The workspace sub-folder to compare. @default "."' }),
      ignore: z.array(z.string().min(1)).optional().meta({ description: 'Glob patterns left out of the comparison.' }),
    }),
});

/** Assertions about what the agent did, read from the normalized trace. */
export const behaviorIntentSchemas = lazyValues({
  'tool-called': () =>
    intent('behavior', 'tool-called', {
      tool: z.string().min(1),
      argsPattern: patternSchema
        .optional()
        .meta({ description: 'A regular expression over the JSON of the arguments.' }),
      flags: regexFlagsSchema.optional(),
    }),
  'tool-not-called': () =>
    intent('behavior', 'tool-not-called', {
      tool: z.string().min(1),
      argsPattern: patternSchema.optional(),
      flags: regexFlagsSchema.optional(),
    }),
  'tool-order': () =>
    intent('behavior', 'tool-order', {
      tools: z.array(z.string().min(1)).min(1),
      order: z.enum(['in-order', 'any-order']).optional().meta({ description: '@default "in-order"' }),
    }),
  'tool-count': () =>
    intent('behavior', 'tool-count', {
      tool: z.string().min(1).optional().meta({ description: 'Count only this tool (default: every tool call).' }),
      min: count.optional(),
      max: count.optional(),
    }).refine(atLeastOne(['min', 'max']), {
      error: '`behavior`/`tool-count` needs `min`, `max` or both',
      path: ['min'],
    }),
  'skill-read': () =>
    intent('behavior', 'skill-read', {
      skill: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'The skill whose SKILL.md must be read (default: the one under test).' }),
    }),
  'command-ran': () =>
    intent('behavior', 'command-ran', { pattern: patternSchema, flags: regexFlagsSchema.optional() }),
  'command-not-run': () =>
    intent('behavior', 'command-not-run', {
      pattern: patternSchema,
      flags: regexFlagsSchema.optional(),
    }),
  budget: () =>
    intent('behavior', 'budget', {
      maxTokens: count.optional(),
      maxDurationMs: count.optional(),
      maxToolCalls: count.optional(),
      maxCostUsd: z.number().nonnegative().optional(),
    }).refine(atLeastOne(['maxTokens', 'maxDurationMs', 'maxToolCalls', 'maxCostUsd']), {
      error: '`behavior`/`budget` needs at least one of `maxTokens`, `maxDurationMs`, `maxToolCalls`, `maxCostUsd`',
      path: ['maxTokens'],
    }),
});

/** Assertions that nothing harmful happened, read from the trace and the workspace. */
export const safetyIntentSchemas = lazyValues({
  'no-write-outside-workspace': () =>
    intent('safety', 'no-write-outside-workspace', {
      allow: z
        .array(z.string().min(1))
        .optional()
        .meta({ description: 'Absolute path prefixes that may be written (for example /tmp).' }),
    }),
  'no-denied-commands': () =>
    intent('safety', 'no-denied-commands', {
      deny: z
        .array(patternSchema)
        .optional()
        .meta({ description: 'Regular expressions added to the default deny list.' }),
      replaceDefaults: z
        .boolean()
        .optional()
        .meta({ description: 'Use only `deny`, not the defaults. @default false' }),
    }),
  'no-secrets': () =>
    intent('safety', 'no-secrets', {
      secrets: z.array(z.string().min(1)).optional().meta({ description: 'Literal values that must not appear.' }),
      env: z.array(z.string().min(1)).optional().meta({
        description: 'Environment variables whose values must not appear (provider keys are always checked).',
      }),
    }),
  'no-network': () =>
    intent('safety', 'no-network', {
      allow: z.array(z.string().min(1)).optional().meta({ description: 'Hosts that may be contacted.' }),
    }),
});

/** Every intent, by kind and then method. */
export const intentSchemas = {
  output: outputIntentSchemas,
  workspace: workspaceIntentSchemas,
  behavior: behaviorIntentSchemas,
  safety: safetyIntentSchemas,
} as const;

export type IntentKind = keyof typeof intentSchemas;

/** Whether a value names an intent kind (`output`, `workspace`, `behavior` or `safety`). */
export function isIntentKind(value: unknown): value is IntentKind {
  return typeof value === 'string' && Object.hasOwn(intentSchemas, value);
}

export const intentKinds: IntentKind[] = Object.keys(intentSchemas).filter(isIntentKind);

/** The methods of one intent kind. */
export function intentMethods(kind: IntentKind): string[] {
  return Object.keys(intentSchemas[kind]);
}

/** Any intent assertion: built when first parsed (the loader reads one method's schema at a time). */
export const intentAssertionSchema = z.lazy(() =>
  z.union([
    ...Object.values(outputIntentSchemas),
    ...Object.values(workspaceIntentSchemas),
    ...Object.values(behaviorIntentSchemas),
    ...Object.values(safetyIntentSchemas),
  ]),
);
export type IntentAssertion = z.infer<typeof intentAssertionSchema>;
