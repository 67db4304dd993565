import { describe, expect, it } from 'vitest';
import { explainUnsafeSkillName } from './names.js';

describe('names', () => {
  it('accepts letters of any script, digits, dots, underscores and dashes in a skill name', () => {
    expect(explainUnsafeSkillName('résumé_写作-v1.2')).toBeUndefined();
  });
});
