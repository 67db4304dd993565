import type { Excerpt } from '../report-data.js';

/**
 * How much of what the agent, the graders and the judge wrote goes into a page. Each case run
 * gets an equal share of `textBudget` (between the floor and the ceiling), split between its
 * response, evidence, output files and trace; images share one budget for the whole page. So a
 * page stays bounded whatever the run holds: 1,000 case runs fit in about 15 MB.
 */
export interface ReportBounds {
  /** Characters of excerpts for the whole page. @default 10,000,000 */
  textBudget: number;
  /** Characters a case run gets at least, however many there are. @default 6,000 */
  perRunFloor: number;
  /** Characters a case run gets at most. @default 60,000 */
  perRunCeiling: number;
  /** Bytes of one image inlined as a data URL. @default 256 KiB */
  imageBytes: number;
  /** Bytes of inlined images for the whole page. @default 2 MiB */
  imageBudget: number;
  /** Output files listed per case run. @default 100 */
  outputFiles: number;
}

export const defaultBounds: ReportBounds = {
  textBudget: 10_000_000,
  perRunFloor: 6_000,
  perRunCeiling: 60_000,
  imageBytes: 256 * 1024,
  imageBudget: 2 * 1024 * 1024,
  outputFiles: 100,
};

/** A case run's share of the text budget, by part. */
export interface RunShare {
  response: number;
  evidence: number;
  outputs: number;
  trace: number;
}

export function runShareOf(bounds: ReportBounds, caseRuns: number): RunShare {
  const share = Math.min(
    bounds.perRunCeiling,
    Math.max(bounds.perRunFloor, Math.floor(bounds.textBudget / Math.max(1, caseRuns))),
  );
  return {
    response: Math.floor(share * 0.35),
    evidence: Math.floor(share * 0.15),
    outputs: Math.floor(share * 0.25),
    trace: Math.floor(share * 0.25),
  };
}

/** The text, cut to `max` characters (never inside a surrogate pair) and marked when cut. */
export function excerptOf(text: string, max: number): Excerpt {
  if (text.length <= max) return { text };
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), cut: text.length };
}

/** A running budget of characters: each `take` spends what it returns. */
export function createBudget(total: number) {
  let left = total;
  return {
    get left() {
      return left;
    },
    /** An excerpt of at most `max` characters and of what is left; spends its length. */
    take(text: string, max: number): Excerpt {
      const excerpt = excerptOf(text, Math.max(0, Math.min(max, left)));
      left -= excerpt.text.length;
      return excerpt;
    },
    spend(count: number) {
      left -= count;
    },
  };
}
