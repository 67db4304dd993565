import * as util from 'node:util';

/** How a terminal report colours its parts; every function returns its text unchanged when colour is off. */
export interface Style {
  pass(text: string): string;
  fail(text: string): string;
  error(text: string): string;
  skip(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

type Format = Parameters<typeof util.styleText>[0];

/**
 * Colours through `node:util`'s `styleText` when `color` is true. Whether to colour is the
 * caller's decision (a terminal, `NO_COLOR`, `FORCE_COLOR`), so the stream check `styleText`
 * makes by default is turned off. On a Node without `styleText` (before 20.12) text stays plain.
 */
export function createStyle(color: boolean): Style {
  const styleText = typeof util.styleText === 'function' ? util.styleText : undefined;
  const paint = (format: Format) => (text: string) =>
    color && styleText && text ? styleText(format, text, { validateStream: false }) : text;
  return {
    pass: paint('green'),
    fail: paint(['bold', 'red']),
    error: paint(['bold', 'yellow']),
    skip: paint('cyan'),
    dim: paint('dim'),
    bold: paint('bold'),
  };
}
