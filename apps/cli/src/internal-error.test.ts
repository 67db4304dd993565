import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportInternalError } from './internal-error.js';

describe('an unexpected error', () => {
  it('is one line naming the log file that holds its stack', () => {
    const line = reportInternalError(new Error('boom\nsecond line'));
    expect(line).toMatch(/^skeval: internal error: boom \(details in (.+\.log); please report it\)$/);
    const file = /details in (.+\.log);/.exec(line)?.[1] ?? '';
    expect(readFileSync(file, 'utf8')).toContain('at ');
    rmSync(file);
  });
});
