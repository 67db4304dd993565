import { type GraderResult, SkevalError, type Trace } from '@skeval/schema';
import * as z from 'zod';
import type { RegexRunner } from '../regex/regex-runner.js';
import type { WorkspaceReader } from '../workspace/workspace-reader.js';

/** What a grader sees: the run's response and input, its workspace and trace, and its config. */
export interface GraderContext<Config = Record<string, unknown>> {
  config: Config;
  /** The agent's final response. May be empty. */
  output: string;
  /** The prompt the agent was given. */
  input: string;
  expectedOutput?: string;
  /** The workspace the run left, read safely; absent when grading a response alone. */
  workspace?: WorkspaceReader;
  trace?: Trace;
  /** The skill folder: `snapshot-diff` and `json-valid` schemas are found under it. */
  skillDir?: string;
  /** The skill under test, for `behavior`/`skill-read`. */
  skillName?: string;
  /** Environment whose secret values `safety`/`no-secrets` looks for. @default process.env */
  env?: Record<string, string | undefined>;
  regex: RegexRunner;
}

/** What a grader reads besides its config: the response, the workspace, the trace, the skill folder. */
export type GraderInput = 'output' | 'workspace' | 'trace' | 'skill';

/**
 * A built-in grader: a name, a one-line description, what it reads, a config schema, and a function from the
 * context to `{ score, assertions }`. It throws a `SkevalError` only when it cannot decide
 * (a pattern that timed out, a missing workspace): that is an `error` verdict, never a pass.
 */
export interface BuiltInGrader<Config = Record<string, unknown>> {
  name: string;
  description: string;
  /** What it may read; `skeval transpile` gives exactly these to `skeval assert`. */
  reads: readonly GraderInput[];
  parseConfig(config: unknown): Config;
  grade(context: GraderContext<Config>): Promise<GraderResult>;
}

/**
 * Builds a grader whose config is checked against the zod schema of its assertion form. The
 * form's literal fields (`kind` and `method`, or `type`) are filled in, so a config holds only
 * the grader's own arguments.
 */
export function defineBuiltInGrader<Schema extends z.ZodObject>(definition: {
  name: string;
  description: string;
  reads: readonly GraderInput[];
  /** Called when a config is first parsed, so loading the registry builds no schema. */
  schema: () => Schema;
  grade(context: GraderContext<z.infer<Schema>>): Promise<GraderResult> | GraderResult;
}): BuiltInGrader<z.infer<Schema>> {
  // Configs come from a loaded evals file and are graded once per case run: parse each once.
  const parsedConfigs = new WeakMap<object, z.infer<Schema>>();
  let built: { schema: Schema; fixed: Record<string, unknown> } | undefined;
  const build = () => {
    const schema = definition.schema();
    const fixed = Object.fromEntries(
      Object.entries(schema.shape).flatMap(([key, field]) =>
        field instanceof z.ZodLiteral ? [[key, field.value]] : [],
      ),
    );
    built = { schema, fixed };
    return built;
  };
  return {
    name: definition.name,
    description: definition.description,
    reads: definition.reads,
    parseConfig(config) {
      const known = config && typeof config === 'object' ? parsedConfigs.get(config) : undefined;
      if (known !== undefined) return known;
      const { schema, fixed } = built ?? build();
      const candidate = { ...(config && typeof config === 'object' ? config : {}), ...fixed };
      const parsed = schema.safeParse(candidate);
      if (parsed.success) {
        if (config && typeof config === 'object') parsedConfigs.set(config, parsed.data);
        return parsed.data;
      }
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.map(String).join('.') || 'config'}: ${issue.message}`,
      );
      throw new SkevalError({
        code: 'usage',
        message: `invalid config for \`${definition.name}\`: ${problems.join('; ')}`,
      });
    },
    async grade(context) {
      return definition.grade(context);
    },
  };
}

/** One verdict, as built-in graders give it. */
export function verdict(text: string, passed: boolean, evidence: string): GraderResult {
  return { score: passed ? 1 : 0, assertions: [{ text, passed, evidence }] };
}

export function requireWorkspace(context: GraderContext<unknown>, grader: string): WorkspaceReader {
  if (context.workspace) return context.workspace;
  throw new SkevalError({
    code: 'usage',
    message: `\`${grader}\` reads files, so it needs a workspace (give \`workspace_path\`)`,
  });
}

/**
 * The trace, with its tool calls checked to be a list: every trace grader counts or walks them,
 * and a string or an object with a `length` would count as calls.
 */
export function requireTrace(context: GraderContext<unknown>, grader: string): Trace {
  const { trace } = context;
  if (!trace)
    throw new SkevalError({
      code: 'usage',
      message: `\`${grader}\` reads what the agent did, so it needs a trace (give \`trace\`)`,
    });
  const calls: unknown = trace.tool_calls;
  if (!Array.isArray(calls))
    throw new SkevalError({
      code: 'grader_failed',
      message: `\`${grader}\`: the trace's tool_calls is ${JSON.stringify(calls)?.slice(0, 60) ?? String(calls)}, not a list of tool calls`,
    });
  return trace;
}
