import type { JudgeCaseInput, JudgeClaim, JudgeVerdict } from './types.js';

interface Entry {
  id: string;
  verdict: 'pass' | 'fail';
  evidence: string;
  quote: string | null;
  source: string | null;
}

/**
 * Checks the judge's answer entry by entry. A claim with no entry, two entries or a malformed
 * one is `error`; the others keep their verdicts. A pass whose quote cannot be found where it
 * says is not counted as a pass.
 */
export function readVerdicts(
  answer: unknown,
  claims: JudgeClaim[],
  input: JudgeCaseInput,
  answerText: string,
): { verdicts: JudgeVerdict[]; notes: string[]; valid: boolean } {
  const list = answer !== null && typeof answer === 'object' ? (answer as { verdicts?: unknown }).verdicts : undefined;
  if (!Array.isArray(list)) {
    const seen = answerText.trim() ? `: ${JSON.stringify(answerText.trim().slice(0, 160))}` : '';
    const evidence = `the judge did not answer with the verdict JSON${seen}`;
    return {
      verdicts: claims.map((claim) => ({ id: claim.id, status: 'error', passed: false, evidence })),
      notes: [],
      valid: false,
    };
  }
  const asked = new Set(claims.map((claim) => claim.id));
  const notes = list
    .filter((entry) => !(entry && typeof entry === 'object' && asked.has(String((entry as { id?: unknown }).id))))
    .map((entry) => `ignored a verdict for an id that was not asked: ${JSON.stringify(entry).slice(0, 120)}`);
  let valid = notes.length === 0;
  const verdicts = claims.map((claim): JudgeVerdict => {
    const entries = list.filter(
      (entry) => entry && typeof entry === 'object' && String((entry as { id?: unknown }).id) === claim.id,
    );
    if (entries.length === 0)
      return (
        (valid = false),
        { id: claim.id, status: 'error', passed: false, evidence: 'the judge gave no verdict for this claim' }
      );
    if (entries.length > 1)
      return (
        (valid = false),
        {
          id: claim.id,
          status: 'error',
          passed: false,
          evidence: `the judge gave ${entries.length} verdicts for this claim`,
        }
      );
    const problem = malformed(entries[0]);
    if (problem)
      return (
        (valid = false),
        { id: claim.id, status: 'error', passed: false, evidence: `the judge's verdict is malformed: ${problem}` }
      );
    return settle(claim, entries[0] as Entry, input);
  });
  return { verdicts, notes, valid };
}

function malformed(entry: unknown): string | undefined {
  const value = entry as Record<string, unknown>;
  if (value.verdict !== 'pass' && value.verdict !== 'fail')
    return `\`verdict\` is ${JSON.stringify(value.verdict)}, not "pass" or "fail"`;
  if (typeof value.evidence !== 'string' || value.evidence.trim() === '') return '`evidence` is missing or empty';
  if (value.quote !== undefined && value.quote !== null && typeof value.quote !== 'string')
    return '`quote` is not a string';
  if (value.source !== undefined && value.source !== null && typeof value.source !== 'string')
    return '`source` is not a string';
  return undefined;
}

function settle(claim: JudgeClaim, entry: Entry, input: JudgeCaseInput): JudgeVerdict {
  const quote = entry.quote?.trim();
  const cited = quote
    ? ` (quote: ${JSON.stringify(quote.slice(0, 200))}${entry.source ? ` from ${entry.source}` : ''})`
    : '';
  if (entry.verdict === 'fail')
    return { id: claim.id, status: 'fail', passed: false, evidence: `${entry.evidence}${cited}` };
  if (!quote) return { id: claim.id, status: 'pass', passed: true, evidence: entry.evidence };
  const where = findQuote(quote, entry.source, input);
  if (where) return { id: claim.id, status: 'pass', passed: true, evidence: `${entry.evidence}${cited}` };
  const place = entry.source ? entry.source : 'the response or the files';
  return {
    id: claim.id,
    status: 'fail',
    passed: false,
    evidence: `not counted as a pass: the judge quoted ${JSON.stringify(quote.slice(0, 200))}, which is not in ${place}. The judge said: ${entry.evidence}`,
  };
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

function findQuote(quote: string, source: string | null, input: JudgeCaseInput): string | undefined {
  const needle = normalizeForQuote(quote.replace(/^["'“‘…]+|["'”’…]+$/g, '').replace(/^\.\.\.|\.\.\.$/g, ''));
  if (needle === '') return undefined;
  const places: Array<[string, string]> = [
    ['response', input.response],
    ...input.files.flatMap(
      (file): Array<[string, string]> => (file.excerpt === undefined ? [] : [[file.path, file.excerpt]]),
    ),
  ];
  const named = source?.replace(/^file:/, '').trim();
  const searched =
    named && named !== 'response' && places.some(([name]) => name === named)
      ? places.filter(([name]) => name === named)
      : named === 'response'
        ? places.slice(0, 1)
        : places;
  return searched.find(([, text]) => normalizeForQuote(text).includes(needle))?.[0];
}
