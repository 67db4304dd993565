import { describe, expect, it } from 'vitest';
import { SkevalError } from './errors.js';

describe('SkevalError', () => {
  it('is recognized by its marker, even from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('skeval.error')]: true });
    expect(SkevalError.isInstance(new SkevalError({ code: 'usage', message: 'bad flag' }))).toBe(true);
    expect(SkevalError.isInstance(foreign)).toBe(true);
    expect(SkevalError.isInstance(new Error('x'))).toBe(false);
  });

  it('is retryable by default only for rate limits, server errors and timeouts', () => {
    expect(new SkevalError({ code: 'provider_rate_limit', message: '429' }).retryable).toBe(true);
    expect(new SkevalError({ code: 'provider_server', message: '500' }).retryable).toBe(true);
    expect(new SkevalError({ code: 'provider_auth', message: '401' }).retryable).toBe(false);
    expect(new SkevalError({ code: 'provider_auth', message: '401', retryable: true }).retryable).toBe(true);
  });

  it('keeps its cause', () => {
    const cause = new Error('ECONNRESET');
    expect(new SkevalError({ code: 'io', message: 'read failed', cause }).cause).toBe(cause);
  });
});
