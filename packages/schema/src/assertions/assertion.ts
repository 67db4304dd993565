import * as z from 'zod';
import { graderNamePattern, legacyScriptTypes, proseFields } from '../names.js';
import { assertionLabelFields } from './common.js';
import { intentAssertionSchema } from './intent.js';
import { legacyScriptAssertionSchema } from './legacy-script.js';

/** A prose claim, graded by the LLM judge. */
export const proseAssertionSchema = z
  .string()
  .regex(/\S/, { error: 'the assertion is empty; write the claim to check' });

const notBuiltIn = `^(?!(${legacyScriptTypes.join('|')})$)`;

/** A grader by name (from `.skeval/graders/` or `.agentv/graders/`), with its own config. */
export const graderReferenceSchema = z.looseObject({
  ...assertionLabelFields,
  type: z
    .string()
    .regex(new RegExp(`${notBuiltIn}${graderNamePattern.source.slice(1)}`), {
      error: 'a grader name uses only letters, digits, `_` and `-`',
    })
    .meta({ description: 'The grader to run: a custom grader in .skeval/graders/<type>.ts, or a known alias.' }),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type GraderReference = z.infer<typeof graderReferenceSchema>;

const absent = z.never().optional().meta({ description: 'Must be absent: with it, the object is a typed assertion.' });
const proseText = z.string().regex(/\S/);

/** An object with no `type` or `kind` whose prose field (`text`, `description` or `check`) is read as a judged claim. */
export const proseObjectAssertionSchema = z.union(
  proseFields.map((field) =>
    z.looseObject({
      ...assertionLabelFields,
      type: absent,
      kind: absent,
      name: z.string().optional(),
      [field]: proseText,
    }),
  ),
);

/** One entry of a case's `assertions` or `expectations` list, as written. */
export const assertionSchema = z.union([
  proseAssertionSchema,
  legacyScriptAssertionSchema,
  intentAssertionSchema,
  graderReferenceSchema,
  proseObjectAssertionSchema,
]);
export type Assertion = z.infer<typeof assertionSchema>;

/** How an assertion is graded, once read. */
export type AssertionSpec =
  | {
      /** Graded by the LLM judge, batched with the case run's other claims. */
      mode: 'judge';
      claim: string;
    }
  | {
      /** Graded as code by the grader of this name (built-in or custom). */
      mode: 'grader';
      grader: string;
      config: Record<string, unknown>;
      /**
       * For an object whose `type` or `kind` Skeval does not know: the prose to give the judge when no
       * custom grader of that name exists.
       */
      fallbackClaim?: string;
    };

/** An assertion as the loader returns it: where it was, what to show, how to grade it. */
export interface NormalizedAssertion {
  /** The list it came from: both are graded. */
  list: 'assertions' | 'expectations';
  /** Its position in that list. */
  index: number;
  /** The author's id, when given. */
  id?: string;
  /** What it checks, in words: the claim, the author's text, or a rendering of the check. */
  text: string;
  spec: AssertionSpec;
  /** A hard assertion (`mustPass: true`). */
  mustPass: boolean;
  /** The entry exactly as written. */
  source: unknown;
}
