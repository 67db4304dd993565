import { createHash } from 'node:crypto';
import { anthropicMessage, type FakeReply, openaiCompletion } from './replies.js';
import type { RecordedRequest, ReplyFunction } from './server.js';

/** A claim whose verdict flips away from its usual one with a set probability. */
export interface NoisyClaim {
  /** A text the claim contains. */
  match: string;
  /** The chance, from 0 to 1, that one answer gives the other verdict. */
  probability: number;
}

export interface NoisyJudgeOptions {
  /** Claims that flip; a claim that matches none of them always gets its usual verdict. */
  flips?: NoisyClaim[];
  /** Claims (by a text they contain) whose usual verdict is fail; every other claim's is pass. */
  fails?: string[];
  /** Claims (by a text they contain) the judge leaves out of its answer, which Skeval grades `error`. */
  undecided?: string[];
  /** Models (as the request names them) that answer every claim with its usual verdict: a stronger judge. */
  steady?: string[];
  /** @default 1 */
  seed?: number;
}

const claimLine = /^- id ("(?:[^"\\]|\\.)*"): ("(?:[^"\\]|\\.)*")$/gm;
const responseFence = /<<<(DATA-[0-9a-f]+) response>>>\n([\s\S]*?)\n<<<END \1>>>/;

/** The text of a request's first user message, as either API carries it. */
function userText(request: RecordedRequest): string {
  const messages = Array.isArray(request.body.messages) ? request.body.messages : [];
  const user = messages.find((message) => (message as { role?: unknown }).role === 'user') as
    | { content?: unknown }
    | undefined;
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block) => (typeof block?.text === 'string' ? block.text : '')).join('\n');
  return '';
}

/** A number in [0, 1) from the seed and the parts given: the same parts always draw the same. */
function draw(seed: number, ...parts: Array<string | number>): number {
  const digest = createHash('sha256')
    .update(JSON.stringify([seed, ...parts]))
    .digest();
  return digest.readUInt32BE(0) / 4294967296;
}

/**
 * A reply function that plays an LLM judge with scripted noise: it reads the claims of Skeval's
 * judge prompt and answers each with its usual verdict (pass, quoting the response; or fail),
 * flipped with the claim's probability. The draws are seeded by the claim, the prompt and how
 * many times that same prompt was asked before, so the k samples of one case run draw apart and
 * a rerun draws the same, whatever order case runs arrive in.
 */
export function noisyJudge(options: NoisyJudgeOptions = {}): ReplyFunction {
  const seed = options.seed ?? 1;
  const asked = new Map<string, number>();
  return (request): FakeReply => {
    const text = userText(request);
    const promptHash = createHash('sha256').update(text).digest('hex');
    const repeat = asked.get(promptHash) ?? 0;
    asked.set(promptHash, repeat + 1);
    const response = responseFence.exec(text)?.[2] ?? '';
    const model = typeof request.body.model === 'string' ? request.body.model : '';
    const steady = options.steady?.includes(model) ?? false;
    const verdicts: unknown[] = [];
    for (const [, rawId = '""', rawText = '""'] of text.matchAll(claimLine)) {
      const id: string = JSON.parse(rawId);
      const claim: string = JSON.parse(rawText);
      if (!steady && options.undecided?.some((match) => claim.includes(match))) continue;
      const usual = options.fails?.some((match) => claim.includes(match)) ? 'fail' : 'pass';
      const flip = steady ? undefined : options.flips?.find((entry) => claim.includes(entry.match));
      const flipped = flip !== undefined && draw(seed, promptHash, repeat, id) < flip.probability;
      const verdict = flipped ? (usual === 'pass' ? 'fail' : 'pass') : usual;
      verdicts.push(
        verdict === 'pass'
          ? {
              id,
              verdict,
              evidence: 'The response shows it.',
              quote: response.slice(0, 40),
              source: 'response',
              absent: null,
            }
          : { id, verdict, evidence: 'The material does not show it.', quote: null, source: null, absent: null },
      );
    }
    const input = { verdicts };
    return {
      body:
        request.format === 'anthropic'
          ? anthropicMessage({ toolUse: { name: 'record_verdicts', input }, model })
          : openaiCompletion({ content: JSON.stringify(input), model }),
    };
  };
}
