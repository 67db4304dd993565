import type { ContextManifest, Grading, Timing, Trace } from '@skeval/schema';
import type { Configuration } from '@skeval/schema/internal';

/** What a case run's `timing.json` is made from. */
export interface TimingInput {
  usage: Trace['usage'];
  startedAt: Date;
  durationMs: number;
  model: string | null;
  judge?: Grading['judge'];
}

/** A case run's `timing.json`: tokens, time, cost, the model, and the judge's usage when it was asked. */
export function buildTiming(input: TimingInput): Timing {
  const { usage, startedAt, durationMs } = input;
  return {
    total_tokens: usage.total_tokens,
    duration_ms: durationMs,
    total_duration_seconds: Math.round(durationMs / 100) / 10,
    executor_start: startedAt.toISOString(),
    executor_end: new Date(startedAt.getTime() + durationMs).toISOString(),
    model: input.model,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cached_input_tokens: usage.cached_input_tokens ?? 0,
    ...(usage.cache_write_input_tokens ? { cache_write_input_tokens: usage.cache_write_input_tokens } : {}),
    cost_usd: usage.cost_usd ?? null,
    ...(input.judge ? { judge: input.judge } : {}),
  };
}

/** The `timing.json` of a case run whose agent never started: nothing spent. */
export const emptyTiming: Timing = { total_tokens: 0, duration_ms: 0, total_duration_seconds: 0, model: null };

/** Who ran a case run and what it was asked: the part of `context-manifest.json` known before the agent starts. */
export interface ManifestHeader {
  arm: Configuration;
  runNumber: number;
  contextMode: 'isolated' | 'ambient';
  agent: string;
  agentVersion?: string | null;
  model: string | null;
  skillsDir: string | null;
  evalCase: { prompt: string; files: ReadonlyArray<{ path: string }>; setup?: ContextManifest['setup'] };
}

/** What the agent could see and did: the rest of `context-manifest.json` (the contamination report). */
export interface ManifestObservations {
  skills: ContextManifest['skills'];
  skillsRead: string[];
  environment: string[];
  tools: string[];
  sandbox?: ContextManifest['sandbox'];
  userContext?: ContextManifest['user_context'];
  permissionDenials?: ContextManifest['permission_denials'];
  processesEndedAfter?: number;
  redacted?: string[];
  workspace?: string;
}

/** A case run's `context-manifest.json`. */
export function buildContextManifest(header: ManifestHeader, seen: ManifestObservations): ContextManifest {
  return {
    arm: header.arm,
    run_number: header.runNumber,
    context_mode: header.contextMode,
    agent: header.agent,
    ...(header.agentVersion !== undefined ? { agent_version: header.agentVersion } : {}),
    model: header.model,
    skills_dir: header.skillsDir,
    skills: seen.skills,
    skills_read: seen.skillsRead,
    prompt: header.evalCase.prompt,
    input_files: header.evalCase.files.map((file) => file.path),
    setup: header.evalCase.setup ?? null,
    environment: seen.environment,
    tools: seen.tools,
    ...(seen.sandbox ? { sandbox: seen.sandbox } : {}),
    ...(seen.userContext ? { user_context: seen.userContext } : {}),
    ...(seen.permissionDenials ? { permission_denials: seen.permissionDenials } : {}),
    ...(seen.processesEndedAfter !== undefined ? { processes_ended_after: seen.processesEndedAfter } : {}),
    ...(seen.redacted ? { redacted: seen.redacted } : {}),
    ...(seen.workspace ? { workspace: seen.workspace } : {}),
  };
}
