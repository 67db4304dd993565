import { discoverSkills, type EvalsIssue, type LoadedCase } from '@skeval/evals';
import {
  buildJudgePrompt,
  estimateCost,
  type JudgeCaseInput,
  judgeLimits,
  type LanguageModel,
  maxTokensFor,
  planBatches,
} from '@skeval/judge';
import { resolveGrader } from '@skeval/scripts';
import { casesOfShard, type Shard } from '../shards/shard.js';

export interface PlanRunOptions {
  path: string;
  cwd?: string;
  skills?: string[];
  cases?: string[];
  compare?: boolean;
  baseline?: string;
  runs?: number;
  /** The judge, if one is configured: judge calls and their cost are estimated for it. */
  judge?: LanguageModel;
  /** Plan only this shard's share of the cases. */
  shard?: Shard;
}

export interface RunPlan {
  skills: Array<{
    skill: string;
    cases: number;
    /** With a shard: the skill's cases across all shards (`cases` is this shard's share). */
    casesInAllShards?: number;
    arms: number;
    runs: number;
    agentRuns: number;
    judgeCalls: number;
  }>;
  /** The shard planned, or `null` for a whole run. */
  shard: Shard | null;
  invalid: Array<{ skill: string; evalsPath: string; errors: EvalsIssue[] }>;
  /** Evals files found that belong to no skill, each with why: they do not run. */
  unpaired: Array<{ evalsPath: string; reason: string }>;
  agentRuns: number;
  judgeCalls: number;
  judge: string | null;
  /** Input tokens of one judge call: with an empty response and no files, and with both at their bounds. */
  judgeInputTokens: { low: number; high: number } | null;
  /** Output tokens of the largest judge call, at most. */
  judgeOutputTokens: number | null;
  /** USD for all judge calls; `null` without a judge or without a price for its model. */
  judgeCostUsd: { low: number; high: number } | null;
}

const charsPerToken = 4;

/**
 * What a run would do, without doing it: how many agent runs and judge calls, a token estimate
 * per judge call from the prompt sizes, and a cost range from the price table. The judge-call
 * count is exact unless a response is so large that the claims no longer fit one call.
 */
export async function planRun(options: PlanRunOptions): Promise<RunPlan> {
  const discovered = await discoverSkills({
    path: options.path,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.cases ? { cases: options.cases } : {}),
  });
  const arms = options.compare || options.baseline ? 2 : 1;
  const runs = Math.max(1, Math.floor(options.runs ?? 1));
  const plan: RunPlan = {
    skills: [],
    invalid: [],
    unpaired: discovered.unpaired.map((entry) => ({ evalsPath: entry.evalsPath, reason: entry.reason })),
    agentRuns: 0,
    judgeCalls: 0,
    judge: options.judge ? `${options.judge.provider}:${options.judge.model}` : null,
    shard: options.shard ?? null,
    judgeInputTokens: null,
    judgeOutputTokens: null,
    judgeCostUsd: null,
  };
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  let output = 0;
  let costLow = 0;
  let costHigh = 0;
  let priced = Boolean(options.judge);
  for (const skill of discovered) {
    if (!skill.load.evals) {
      plan.invalid.push({ skill: skill.name, evalsPath: skill.evalsPath, errors: skill.load.errors });
      continue;
    }
    let judgeCalls = 0;
    const share = casesOfShard(skill.name, skill.load.evals.cases, options.shard);
    for (const evalCase of share) {
      const claims = claimsOf(evalCase, skill.dir);
      if (claims.length === 0 || !options.judge) continue;
      const context = options.judge.contextTokens;
      const small: JudgeCaseInput = {
        prompt: evalCase.prompt,
        ...(evalCase.expectedOutput ? { expectedOutput: evalCase.expectedOutput } : {}),
        response: '',
        files: [],
        claims,
      };
      const large: JudgeCaseInput = {
        ...small,
        response: 'x'.repeat(judgeLimits.responseChars),
        files: [
          {
            path: 'output.md',
            size: judgeLimits.excerptTotalChars,
            excerpt: 'x'.repeat(judgeLimits.excerptTotalChars),
          },
        ],
      };
      const batches = planBatches(small, context);
      judgeCalls += batches.length * arms * runs;
      for (const batch of batches) {
        const tokensOf = (input: JudgeCaseInput) => {
          const prompt = buildJudgePrompt(input, batch);
          return Math.ceil((prompt.sizes.instructionChars + prompt.sizes.contentChars) / charsPerToken);
        };
        const [lowTokens, highTokens, outTokens] = [tokensOf(small), tokensOf(large), maxTokensFor(batch.length)];
        low = Math.min(low, lowTokens);
        high = Math.max(high, highTokens);
        output = Math.max(output, outTokens);
        const typicalOutput = 80 * batch.length;
        const cheap = estimateCost(
          { inputTokens: lowTokens, outputTokens: typicalOutput, cachedInputTokens: 0 },
          options.judge.provider,
          options.judge.model,
        );
        const dear = estimateCost(
          { inputTokens: highTokens, outputTokens: outTokens, cachedInputTokens: 0 },
          options.judge.provider,
          options.judge.model,
        );
        if (cheap === null || dear === null) priced = false;
        else {
          costLow += cheap * arms * runs;
          costHigh += dear * arms * runs;
        }
      }
    }
    const cases = share.length;
    const all = options.shard ? { casesInAllShards: skill.load.evals.cases.length } : {};
    plan.skills.push({ skill: skill.name, cases, ...all, arms, runs, agentRuns: cases * arms * runs, judgeCalls });
    plan.agentRuns += cases * arms * runs;
    plan.judgeCalls += judgeCalls;
  }
  if (plan.judgeCalls > 0) {
    plan.judgeInputTokens = { low, high };
    plan.judgeOutputTokens = output;
    plan.judgeCostUsd = priced
      ? { low: Math.round(costLow * 1e6) / 1e6, high: Math.round(costHigh * 1e6) / 1e6 }
      : null;
  }
  return plan;
}

/** The claims a case run sends the judge: prose assertions, `output`/`judge` intents, and the prose of references to graders that do not exist. */
function claimsOf(evalCase: LoadedCase, skillDir: string) {
  return evalCase.assertions.flatMap((assertion, index) => {
    const { spec } = assertion;
    if (spec.mode === 'judge') return [{ id: `a${index + 1}`, text: spec.claim }];
    const missing = resolveGrader(spec.grader, { from: skillDir }).kind === 'missing';
    return missing && spec.fallbackClaim ? [{ id: `a${index + 1}`, text: spec.fallbackClaim }] : [];
  });
}
