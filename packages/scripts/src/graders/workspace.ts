import { SkevalError } from '@skeval/schema';
import { legacyScriptSchemas, workspaceIntentSchemas } from '@skeval/schema/internal';
import { runRegex } from '../regex/regex-runner.js';
import { defineBuiltInGrader, type GraderContext, requireWorkspace, verdict } from '../registry/grader.js';
import { createWorkspaceReader, formatSize } from '../workspace/workspace-reader.js';
import {
  describePattern,
  describeSearched,
  inContext,
  messageOf,
  position,
  quote,
  settle,
  truncationNote,
  unreadable,
} from './evidence.js';
import { describeJsonValue, gradeResponseRegex } from './output.js';

/**
 * Whether a path exists. The `workspace`/`file-exists` intent takes a folder too; arc-skill-eval's
 * `file-exists` means a file, and fails a folder as arc-skill-eval does.
 */
function fileExists(context: GraderContext<{ path: string }>, name: string, folders: 'exist' | 'fail') {
  const workspace = requireWorkspace(context, name);
  const { path } = context.config;
  const entry = workspace.entry(path);
  const text = `${path} exists`;
  if (entry.status === 'file') return verdict(text, true, `${path} exists (${formatSize(entry.size)})`);
  if (entry.status === 'folder')
    return folders === 'exist'
      ? verdict(text, true, `${path} exists (a folder)`)
      : verdict(text, false, `${path} is a folder, not a file`);
  return verdict(text, false, entry.status === 'missing' ? `${path} does not exist in the workspace` : entry.reason);
}

async function fileMatches(
  context: GraderContext<{ path: string; pattern?: string; flags?: string; value?: string }>,
  name: string,
) {
  const workspace = requireWorkspace(context, name);
  const { path, pattern, flags, value } = context.config;
  const text =
    pattern === undefined
      ? `${path} contains ${quote(value ?? '', 60)}`
      : `${path} matches ${describePattern(pattern, flags)}`;
  const file = workspace.readText(path);
  const problem = unreadable(file);
  if (problem || file.status !== 'text') return verdict(text, false, problem ?? `${path} could not be read`);
  const searched = `${describeSearched(path, file.text, file.size)}${truncationNote(file)}`;
  if (pattern === undefined) {
    const index = file.text.indexOf(value ?? '');
    if (index === -1) return verdict(text, false, `${quote(value ?? '', 60)} not found in ${searched}`);
    return verdict(
      text,
      true,
      `found at ${position(file.text, index)} of ${path}: ${inContext(file.text, index, (value ?? '').length)}`,
    );
  }
  const outcome = await runRegex(context.regex, { pattern, flags, text: file.text });
  const found = settle(outcome, pattern, flags);
  if (found.status === 'no-match') return verdict(text, false, `no match in ${searched}`);
  return verdict(
    text,
    true,
    `found ${quote(found.match)} at ${position(file.text, found.index)} of ${path}: ${inContext(file.text, found.index, found.match.length)}`,
  );
}

async function jsonValid(
  context: GraderContext<{ path: string; schema?: string | Record<string, unknown> }>,
  name: string,
) {
  const workspace = requireWorkspace(context, name);
  const { path, schema } = context.config;
  const text = schema === undefined ? `${path} is valid JSON` : `${path} is valid JSON that satisfies its schema`;
  const file = workspace.readText(path);
  const problem = unreadable(file);
  if (problem || file.status !== 'text') return verdict(text, false, problem ?? `${path} could not be read`);
  if (file.truncated)
    return verdict(
      text,
      false,
      `${path} is ${formatSize(file.size)}, larger than the read limit, so it was not parsed`,
    );
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch (error) {
    return verdict(text, false, `${path} is not valid JSON: ${messageOf(error)}`);
  }
  if (schema === undefined) return verdict(text, true, `${path} parses as ${describeJsonValue(value)}`);
  const checked = await validateAgainstSchema(context, file.text, await loadSchema(schema, context), path);
  const { errors, total } = checked;
  if (checked.valid)
    return verdict(text, true, `${path} parses as ${describeJsonValue(value)} and satisfies the schema`);
  return verdict(
    text,
    false,
    `${path} does not satisfy the schema: ${errors.slice(0, 3).join('; ')}${total > 3 ? `; and ${total - 3} more` : ''}`,
  );
}

/** A JSON Schema as Ajv takes it: an object, or `true`/`false`. */
type JsonSchema = object | boolean;

const isJsonSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'boolean' || (typeof value === 'object' && value !== null);

async function loadSchema(
  schema: string | Record<string, unknown>,
  context: GraderContext<unknown>,
): Promise<JsonSchema> {
  if (typeof schema !== 'string') return schema;
  if (!context.skillDir)
    throw new SkevalError({
      code: 'usage',
      message: `the JSON Schema \`${schema}\` is a path in the skill folder, but no skill folder was given`,
    });
  const file = createWorkspaceReader(context.skillDir).readText(schema);
  if (file.status !== 'text')
    throw new SkevalError({
      code: 'invalid_input',
      message: `cannot read the JSON Schema ${schema}: ${unreadable(file)}`,
    });
  let loaded: unknown;
  try {
    loaded = JSON.parse(file.text);
  } catch (error) {
    throw new SkevalError({
      code: 'invalid_input',
      message: `the JSON Schema ${schema} is not valid JSON: ${messageOf(error)}`,
    });
  }
  // Ajv's own words for a schema of another type.
  if (!isJsonSchema(loaded))
    throw new SkevalError({
      code: 'invalid_input',
      message: 'the JSON Schema does not compile: schema must be object or boolean',
    });
  return loaded;
}

/**
 * The document against the schema, in the regex worker: ajv runs the schema's `pattern`s with
 * `RegExp`, so on the main thread `^(a+)+$` against a long string from the agent would hang the
 * process. The whole validation runs there under the regex time bound, so nothing a schema can
 * hold (patterns, property-name patterns, a schema that is slow to compile) blocks grading.
 */
async function validateAgainstSchema(
  context: GraderContext<unknown>,
  data: string,
  schema: JsonSchema,
  path: string,
): Promise<{ valid: boolean; errors: string[]; total: number }> {
  const is2020 =
    typeof schema === 'object' &&
    '$schema' in schema &&
    typeof schema.$schema === 'string' &&
    schema.$schema.includes('2020-12');
  const outcome = await context.regex.validateJson({
    schema: JSON.stringify(schema),
    data,
    draft: is2020 ? '2020-12' : 'draft-07',
  });
  switch (outcome.status) {
    case 'valid':
      return { valid: true, errors: [], total: 0 };
    case 'invalid':
      return { valid: false, errors: outcome.errors, total: outcome.errorCount };
    case 'bad-schema':
      throw new SkevalError({ code: 'invalid_input', message: `the JSON Schema does not compile: ${outcome.message}` });
    case 'error':
      throw new SkevalError({
        code: outcome.message.includes('timed out') ? 'grader_timeout' : 'grader_failed',
        message: `validating ${path} against its JSON Schema: ${outcome.message}${outcome.message.includes('timed out') ? " (a `pattern` in the schema may backtrack on the document's text)" : ''}`,
      });
  }
}

export const workspaceFileExists = defineBuiltInGrader({
  name: 'workspace-file-exists',
  description: 'A file (or folder) exists in the workspace.',
  reads: ['workspace'],
  schema: () => workspaceIntentSchemas['file-exists'],
  grade: (context) => fileExists(context, 'workspace-file-exists', 'exist'),
});

export const workspaceFileContains = defineBuiltInGrader({
  name: 'workspace-file-contains',
  description: 'A workspace file matches a regular expression or contains a literal text.',
  reads: ['workspace'],
  schema: () => workspaceIntentSchemas['file-contains'],
  grade: (context) => fileMatches(context, 'workspace-file-contains'),
});

export const workspaceJsonValid = defineBuiltInGrader({
  name: 'workspace-json-valid',
  description: 'A workspace file is valid JSON, optionally satisfying a JSON Schema.',
  reads: ['workspace', 'skill'],
  schema: () => workspaceIntentSchemas['json-valid'],
  grade: (context) => jsonValid(context, 'workspace-json-valid'),
});

export const legacyFileExists = defineBuiltInGrader({
  name: 'file-exists',
  description: 'A file exists in the workspace (arc-skill-eval script assertion).',
  reads: ['workspace'],
  schema: () => legacyScriptSchemas['file-exists'],
  grade: (context) => fileExists(context, 'file-exists', 'fail'),
});

export const legacyJsonValid = defineBuiltInGrader({
  name: 'json-valid',
  description: 'A workspace file is valid JSON (arc-skill-eval script assertion).',
  reads: ['workspace'],
  schema: () => legacyScriptSchemas['json-valid'],
  grade: (context) => jsonValid(context, 'json-valid'),
});

export const legacyRegexMatch = defineBuiltInGrader({
  name: 'regex-match',
  description: 'The response, or a workspace file, matches a regular expression (arc-skill-eval script assertion).',
  reads: ['output', 'workspace'],
  schema: () => legacyScriptSchemas['regex-match'],
  async grade(context) {
    const { config } = context;
    const target = config.target ?? 'assistant-text';
    if (target !== 'assistant-text') {
      return fileMatches(
        { ...context, config: { path: target.file, pattern: config.pattern, flags: config.flags } },
        'regex-match',
      );
    }
    return gradeResponseRegex(context.regex, context.output, config.pattern, config.flags);
  },
});
