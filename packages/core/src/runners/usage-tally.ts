import type { TraceBuilder } from './trace-builder.js';

/** Tokens of one model call or of a whole run, each count apart: `input` is the uncached input alone. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

const zero: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** Where a run's token counts came from: the agent's own total, the sum of the calls it printed, or nothing. */
export type TokenSource = 'reported' | 'calls' | 'none';

/**
 * How every CLI runner counts tokens, in one place: each model call's usage by a key (Claude Code
 * prints a message's usage again on each of its content-block lines, so a key seen again replaces,
 * never adds), and the agent's own total for the run when it prints one (Claude Code's `result`),
 * which wins. A run cut off before its total keeps the sum of the calls it printed.
 */
export function createUsageTally() {
  const calls = new Map<string, TokenCounts>();
  let reported: TokenCounts | undefined;
  return {
    /** One model call's usage; a key seen before is replaced. */
    call(key: string, counts: Partial<TokenCounts>) {
      calls.set(key, { ...zero, ...counts });
    },
    /** The agent's own total for the run; several reports (one per model) add up. */
    report(counts: Partial<TokenCounts>) {
      reported = add(reported ?? zero, { ...zero, ...counts });
    },
    /** The run's tokens and where they came from. */
    total(): TokenCounts & { source: TokenSource } {
      if (reported) return { ...reported, source: 'reported' };
      if (calls.size === 0) return { ...zero, source: 'none' };
      return { ...[...calls.values()].reduce(add, zero), source: 'calls' };
    },
  };
}

function add(left: TokenCounts, right: TokenCounts): TokenCounts {
  return {
    input: left.input + right.input,
    output: left.output + right.output,
    cacheRead: left.cacheRead + right.cacheRead,
    cacheWrite: left.cacheWrite + right.cacheWrite,
  };
}

/**
 * Puts counts into a trace the way every trace holds them: `input_tokens` is the whole prompt
 * (uncached, cache reads and cache writes), with the reads in `cached_input_tokens` and the
 * writes in `cache_write_input_tokens`.
 */
export function recordTokens(trace: TraceBuilder, counts: TokenCounts): void {
  trace.setUsage(
    counts.input + counts.cacheRead + counts.cacheWrite,
    counts.output,
    counts.cacheRead,
    counts.cacheWrite,
  );
}
