import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretVariable } from './redactor.js';

describe('the redactor', () => {
  it('replaces the values of credential variables, longest first, in text and in nested values', () => {
    const redactor = createRedactor({
      ANTHROPIC_API_KEY: 'sk-ant-0123456789',
      LONGER_TOKEN: 'sk-ant-0123456789-and-more',
      PATH: '/usr/bin',
      SHORT_KEY: 'abc',
    });
    expect(redactor.names).toEqual(['ANTHROPIC_API_KEY', 'LONGER_TOKEN']);
    expect(redactor.redact('a sk-ant-0123456789-and-more b sk-ant-0123456789')).toBe(
      'a [redacted:LONGER_TOKEN] b [redacted:ANTHROPIC_API_KEY]',
    );
    expect(redactor.redactDeep({ list: ['x sk-ant-0123456789'], count: 3 })).toEqual({
      list: ['x [redacted:ANTHROPIC_API_KEY]'],
      count: 3,
    });
  });

  it('redacts a passed variable by the shape of its value only when asked to', () => {
    expect(isSecretVariable('DEPLOY', 'ghp_0123456789abcdefghijKLMN')).toBe(false);
    expect(isSecretVariable('DEPLOY', 'ghp_0123456789abcdefghijKLMN', { byShape: true })).toBe(true);
    expect(isSecretVariable('DEPLOY', 'just some words here', { byShape: true })).toBe(false);
  });
});
