import { injectionIn, lineBreak } from './injections.js';
import type { JudgeMaterial, ShownText } from './material.js';
import type { JudgeCaseInput, JudgeClaim } from './types.js';

/** A pass's quote must hold at least this many characters that are not whitespace. */
export const minQuoteChars = 12;

/** What a pass rests on: a quote from a named source, and/or a text the claim says is absent. */
export interface PassEvidence {
  quote?: string | null | undefined;
  source?: string | null | undefined;
  absent?: string | null | undefined;
}

/** Compares with case, whitespace, quote marks and an ellipsis at either end ignored. */
export function normalizeForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A quote as compared: normalised, without the quote marks or ellipsis a judge may wrap it in. */
function needleOf(quote: string): string {
  return normalizeForQuote(
    quote
      .trim()
      .replace(/^["'“‘…]+|["'”’…]+$/g, '')
      .replace(/^\.\.\.|\.\.\.$/g, ''),
  );
}

function visibleLength(text: string): number {
  return [...text.replace(/\s/g, '')].length;
}

/** Words that make a claim one about absence ("does not mention X", "no TODO", "without apologising"). */
const negation =
  /\b(?:not|no|never|none|nothing|neither|nor|without|avoids?|omits?|lacks?|excludes?|free\s+of|absent)\b|n['’]t\b/i;

/**
 * Why a pass cannot be kept, or undefined when its evidence holds: a quote of at least 12
 * non-space characters found, after normalisation, in the named source (the response or a file
 * the judge was shown, by its exact path), outside any paragraph that addresses the grader;
 * and/or an absent text taken from a claim about absence that is indeed absent from the response,
 * every file excerpt and every file name.
 */
export function unverifiedPass(
  evidence: PassEvidence,
  claim: JudgeClaim,
  input: JudgeCaseInput,
  material: JudgeMaterial,
): string | undefined {
  const absent = evidence.absent ?? undefined;
  // A blank quote beside an absent text is a judge writing "" for null; alone, it is no evidence.
  const quote = absent !== undefined && evidence.quote?.trim() === '' ? undefined : (evidence.quote ?? undefined);
  if (quote === undefined && absent === undefined) return 'the pass has no quote and no absent text';
  if (quote !== undefined) {
    const problem = quoteProblem(quote, evidence.source ?? undefined, material);
    if (problem) return problem;
  }
  if (absent !== undefined) return absenceProblem(absent, claim, input);
  return undefined;
}

function quoteProblem(quote: string, source: string | undefined, material: JudgeMaterial): string | undefined {
  const needle = needleOf(quote);
  const shown = JSON.stringify(quote.slice(0, 200));
  if (needle === '') return `the quote ${shown} is blank`;
  const length = visibleLength(needle);
  if (length < minQuoteChars)
    return `the quote ${shown} has ${length} non-space character${length === 1 ? '' : 's'}; a pass needs at least ${minQuoteChars}`;
  if (source === undefined) return `the quote ${shown} names no source`;
  const texts = textsOf(source, material);
  if (typeof texts === 'string') return texts;
  const occurrences = texts.flatMap((text) => occurrencesIn(text, needle));
  if (occurrences.length === 0) return `the quote ${shown} is not in ${JSON.stringify(source)}`;
  if (occurrences.every((occurrence) => occurrence.tainted))
    return `the quote ${shown} lies inside text in ${JSON.stringify(source)} that addresses the grader`;
  return undefined;
}

/** The shown texts of a named source, or why it cannot be quoted. */
function textsOf(source: string, material: JudgeMaterial): ShownText[] | string {
  if (source === 'response') return [material.response];
  const named = material.files.filter((file) => file.path === source);
  const shown = named.flatMap((file) => (file.shown ? [file.shown] : []));
  if (shown.length > 0) return shown;
  if (named.length > 0) return `the source ${JSON.stringify(source)} was not shown to the judge`;
  return `the source ${JSON.stringify(source)} is neither "response" nor a file the judge was shown`;
}

/**
 * Where a needle occurs in a shown text, each part searched apart (a quote cannot span the cut
 * marker), and whether every paragraph it touches is clean. A paragraph is a run of non-blank
 * lines; one that holds a line addressing the grader is tainted whole.
 */
function occurrencesIn(text: ShownText, needle: string): Array<{ tainted: boolean }> {
  return text.parts.flatMap((part) => {
    const paragraphs = paragraphsOf(part);
    const joined = paragraphs.map((paragraph) => paragraph.text).join(' ');
    const found: Array<{ tainted: boolean }> = [];
    for (let at = joined.indexOf(needle); at !== -1; at = joined.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      const tainted = paragraphs.some(
        (paragraph) => paragraph.tainted && paragraph.start < end && paragraph.start + paragraph.text.length > at,
      );
      found.push({ tainted });
    }
    return found;
  });
}

/** The paragraphs of a text, normalised, with where each starts in their join by single spaces. */
function paragraphsOf(text: string): Array<{ text: string; tainted: boolean; start: number }> {
  const paragraphs: Array<{ text: string; tainted: boolean; start: number }> = [];
  let start = 0;
  let lines: string[] = [];
  let tainted = false;
  const close = () => {
    const normalized = normalizeForQuote(lines.join('\n'));
    if (normalized !== '') {
      paragraphs.push({ text: normalized, tainted, start });
      start += normalized.length + 1;
    }
    lines = [];
    tainted = false;
  };
  for (const line of text.split(lineBreak)) {
    if (line.trim() === '') close();
    else {
      lines.push(line);
      if (injectionIn(line)) tainted = true;
    }
  }
  close();
  return paragraphs;
}

function absenceProblem(absent: string, claim: JudgeClaim, input: JudgeCaseInput): string | undefined {
  const needle = needleOf(absent);
  const shown = JSON.stringify(absent.slice(0, 200));
  if (needle === '') return `the absent text ${shown} is blank`;
  if (!normalizeForQuote(claim.text).includes(needle)) return `the absent text ${shown} is not taken from the claim`;
  if (!negation.test(claim.text)) return `the claim is not about absence, so the absence of ${shown} cannot prove it`;
  const places: Array<[string, string]> = [
    ['the response', input.response],
    ...input.files.flatMap(
      (file): Array<[string, string]> => [
        [`the file name ${JSON.stringify(file.path)}`, file.path],
        ...(file.excerpt === undefined ? [] : [[JSON.stringify(file.path), file.excerpt] satisfies [string, string]]),
      ],
    ),
  ];
  const present = places.find(([, text]) => normalizeForQuote(text).includes(needle));
  if (present) return `the judge says ${shown} is absent, but it is in ${present[0]}`;
  return undefined;
}
