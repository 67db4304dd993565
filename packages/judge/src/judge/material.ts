import type { JudgeCaseInput } from './types.js';

/** How much of the run's material the judge sees: enough to decide, bounded so one run cannot flood the context. */
export const judgeLimits = { responseChars: 40_000, excerptChars: 4_000, excerptTotalChars: 40_000, listedFiles: 200 };

/** A text as the judge is shown it: whole (one part), or its start and end around a marker Skeval writes. */
export interface ShownText {
  parts: string[];
  /** Characters left out between the parts; 0 when the text is whole. */
  cutChars: number;
}

/** A file as it is listed to the judge, numbered from 1, with the part of it the judge is shown. */
interface ShownFile {
  number: number;
  path: string;
  size: number;
  /** The excerpt as shown; absent when the judge is not shown the file. */
  shown?: ShownText;
  /** Why the file is not shown. */
  hidden?: 'binary' | 'budget';
  /** True when the judge sees less than the whole file. */
  partial: boolean;
}

/** Everything the judge is shown of a case run, in one place, so that the prompt and the evidence check agree. */
export interface JudgeMaterial {
  response: ShownText;
  files: ShownFile[];
  /** Files past the listing limit: neither listed nor shown. */
  unlisted: number;
}

export function materialOf(input: JudgeCaseInput): JudgeMaterial {
  let budget = judgeLimits.excerptTotalChars;
  const files = input.files.slice(0, judgeLimits.listedFiles).map((file, index): ShownFile => {
    const listed = { number: index + 1, path: file.path, size: file.size };
    if (file.excerpt === undefined) return { ...listed, hidden: 'binary', partial: true };
    if (budget <= 0) return { ...listed, hidden: 'budget', partial: true };
    const shown = bound(file.excerpt, Math.min(judgeLimits.excerptChars, budget));
    budget -= renderShown(shown).length;
    return { ...listed, shown, partial: file.truncated === true || shown.cutChars > 0 };
  });
  return {
    response: bound(input.response, judgeLimits.responseChars),
    files,
    unlisted: Math.max(0, input.files.length - judgeLimits.listedFiles),
  };
}

/** The shown text as it goes into the prompt. */
export function renderShown(text: ShownText): string {
  return text.parts.join(`\n[… ${text.cutChars} characters cut …]\n`);
}

/** A long text keeps its start (three quarters of the limit) and its end. */
function bound(text: string, limit: number): ShownText {
  if (text.length <= limit) return { parts: [text], cutChars: 0 };
  const head = Math.floor(limit * 0.75);
  return { parts: [text.slice(0, head), text.slice(text.length - (limit - head))], cutChars: text.length - limit };
}
