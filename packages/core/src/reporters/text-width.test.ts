import { describe, expect, it } from 'vitest';
import { boundedLines, displayWidth, printable, truncate, wrapWords } from './text-width.js';

describe('text for the terminal', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('✅')).toBe(2);
  });

  it('cuts to a width with "…", never past it', () => {
    expect(truncate('greeting', 8)).toBe('greeting');
    expect(truncate('greetings', 8)).toBe('greetin…');
    expect(truncate('日本語の名前', 7)).toBe('日本語…');
    expect(displayWidth(truncate('日本語の名前', 7))).toBeLessThanOrEqual(7);
  });

  it('wraps at spaces and breaks only a word longer than the line', () => {
    expect(wrapWords('the reply names the file greeting.txt', 16)).toEqual([
      'the reply names',
      'the file',
      'greeting.txt',
    ]);
    expect(wrapWords('see /a/very/long/path/to/a/file.txt now', 12)).toEqual([
      'see',
      '/a/very/long',
      '/path/to/a/f',
      'ile.txt now',
    ]);
  });

  it('bounds a paragraph to some lines, the last cut with "…"', () => {
    const text = Array.from({ length: 30 }, (_, at) => `w${at}`).join(' ');
    const lines = boundedLines(text, 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/…$/);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(20);
    expect(boundedLines('short', 20, 2)).toEqual(['short']);
  });

  it('makes text safe to print: one line, control characters shown as codes', () => {
    expect(printable('one\ntwo\r\n\tthree')).toBe('one two three');
    expect(printable('\u001b[2Jcleared\u0007')).toBe('\\u001b[2Jcleared\\u0007');
    expect(printable('a\u2028b\u0000')).toBe('a\\u2028b\\u0000');
  });
});
