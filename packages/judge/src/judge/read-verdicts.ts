import * as z from 'zod';
import { unverifiedPass } from './evidence.js';
import { type JudgeMaterial, materialOf } from './material.js';
import type { JudgeCaseInput, JudgeClaim, JudgeVerdict } from './types.js';

/** The judge's answer, read leniently: only `verdicts` counts, and its entries are checked one by one. */
const judgeAnswerSchema = z.object({ verdicts: z.array(z.unknown()) });

/** Enough of an entry to match it to a claim: any object, whose `id` is compared as a string. */
const verdictIdSchema = z.object({ id: z.unknown().optional() });

const evidenceProblem = '`evidence` is missing or empty';

/** A well-formed entry; each message says what is wrong, and the first field that fails is the one reported. */
const verdictEntrySchema = z.object({
  verdict: z.enum(['pass', 'fail'], {
    error: (issue) => `\`verdict\` is ${JSON.stringify(issue.input)}, not "pass" or "fail"`,
  }),
  evidence: z
    .string({ error: evidenceProblem })
    .refine((evidence) => evidence.trim() !== '', { error: evidenceProblem }),
  quote: z.string({ error: '`quote` is not a string' }).nullish(),
  source: z.string({ error: '`source` is not a string' }).nullish(),
  absent: z.string({ error: '`absent` is not a string' }).nullish(),
});
type Entry = z.infer<typeof verdictEntrySchema>;

/**
 * Checks the judge's answer entry by entry. A claim with no entry, two entries or a malformed
 * one is `error`; the others keep their verdicts. A pass whose evidence Skeval cannot verify
 * (see `unverifiedPass`) is `error` too, never `pass`.
 */
export function readVerdicts(
  answer: unknown,
  claims: JudgeClaim[],
  input: JudgeCaseInput,
  answerText: string,
): { verdicts: JudgeVerdict[]; notes: string[]; valid: boolean } {
  const parsed = judgeAnswerSchema.safeParse(answer);
  if (!parsed.success) {
    const seen = answerText.trim() ? `: ${JSON.stringify(answerText.trim().slice(0, 160))}` : '';
    const evidence = `the judge did not answer with the verdict JSON${seen}`;
    return {
      verdicts: claims.map((claim) => ({ id: claim.id, status: 'error', passed: false, evidence })),
      notes: [],
      valid: false,
    };
  }
  const entries = parsed.data.verdicts.map((entry) => ({ entry, id: idOf(entry) }));
  const asked = new Set(claims.map((claim) => claim.id));
  const notes = entries
    .filter(({ id }) => id === undefined || !asked.has(id))
    .map(({ entry }) => `ignored a verdict for an id that was not asked: ${JSON.stringify(entry).slice(0, 120)}`);
  const material = materialOf(input);
  const verdicts = claims.map((claim) =>
    verdictFor(
      claim,
      entries.filter(({ id }) => id === claim.id).map(({ entry }) => entry),
      input,
      material,
    ),
  );
  // A missing, repeated or malformed entry, or a pass that could not be verified, gives `error`:
  // such an answer is not one to keep.
  const valid = notes.length === 0 && verdicts.every((verdict) => verdict.status !== 'error');
  return { verdicts, notes, valid };
}

function idOf(entry: unknown): string | undefined {
  const parsed = verdictIdSchema.safeParse(entry);
  return parsed.success ? String(parsed.data.id) : undefined;
}

function verdictFor(
  claim: JudgeClaim,
  entries: unknown[],
  input: JudgeCaseInput,
  material: JudgeMaterial,
): JudgeVerdict {
  const failed = (evidence: string): JudgeVerdict => ({ id: claim.id, status: 'error', passed: false, evidence });
  if (entries.length === 0) return failed('the judge gave no verdict for this claim');
  if (entries.length > 1) return failed(`the judge gave ${entries.length} verdicts for this claim`);
  const parsed = verdictEntrySchema.safeParse(entries[0]);
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? 'it does not fit the verdict schema';
    return failed(`the judge's verdict is malformed: ${problem}`);
  }
  return settle(claim, parsed.data, input, material);
}

function settle(claim: JudgeClaim, entry: Entry, input: JudgeCaseInput, material: JudgeMaterial): JudgeVerdict {
  const quote = entry.quote?.trim();
  const absent = entry.absent?.trim();
  const cited = [
    quote ? `quote: ${JSON.stringify(quote.slice(0, 200))}${entry.source ? ` from ${entry.source}` : ''}` : '',
    absent ? `absent: ${JSON.stringify(absent.slice(0, 200))}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const said = cited ? `${entry.evidence} (${cited})` : entry.evidence;
  if (entry.verdict === 'fail') return { id: claim.id, status: 'fail', passed: false, evidence: said };
  const problem = unverifiedPass(entry, claim, input, material);
  if (problem === undefined) return { id: claim.id, status: 'pass', passed: true, evidence: said };
  return {
    id: claim.id,
    status: 'error',
    passed: false,
    evidence: `the judge's evidence could not be verified: ${problem}. The judge said: ${entry.evidence}`,
  };
}
