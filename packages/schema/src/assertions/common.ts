import * as z from 'zod';
import { lazyValues } from '../lazy.js';

/** Regular expression flags as JavaScript takes them. Compiled when the evals file loads. */
export const regexFlagsSchema = z
  .string()
  .regex(/^[dgimsuvy]*$/, { error: 'flags may only use the letters d, g, i, m, s, u, v, y' })
  .meta({ description: 'JavaScript RegExp flags, for example "i" or "ms".' });

/** A regular expression source; compiled when the evals file loads, so a bad pattern is a load error. */
export const patternSchema = z.string().min(1, { error: 'the pattern is empty' });

/**
 * Fields every object assertion may carry, whatever it checks: built when first read (an
 * assertion's schema spreads them), so the loader reads their names without building them.
 */
export const assertionLabelFields = lazyValues({
  id: () =>
    z
      .union([z.string().min(1), z.number()])
      .optional()
      .meta({ description: 'A stable id, for diffing results across runs.' }),
  text: () => z.string().optional().meta({ description: 'What the assertion checks, in words (shown in reports).' }),
  description: () => z.string().optional(),
  mustPass: () => z.boolean().optional().meta({ description: 'A hard assertion: the case fails when it fails.' }),
});
