import { describe, expect, it } from 'vitest';
import { caseIdSlug, explainUnsafeSkillName } from './names.js';

describe('names', () => {
  it('maps a case id to its folder slug with the plain rule', () => {
    expect(caseIdSlug('a b/c:d.e-f_g')).toBe('a_b_c_d.e-f_g');
  });

  it('accepts letters of any script, digits, dots, underscores and dashes in a skill name', () => {
    expect(explainUnsafeSkillName('résumé_写作-v1.2')).toBeUndefined();
  });
});
