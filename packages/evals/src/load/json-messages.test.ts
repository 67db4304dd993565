import { describe, expect, it } from 'vitest';
import { formatIssue } from './issues.js';
import { loadEvalsFile } from './load-evals-file.js';

const fileName = 'evals.json';

function errorsOf(source: string): string[] {
  return loadEvalsFile({ source, fileName }).errors.map((issue) => formatIssue(fileName, issue));
}

const quoteFix = 'a `"` inside a string must be written `\\"` (for example "say \\"hi\\" now")';

describe('loadEvalsFile: a quote that ends a string early', () => {
  it('says a `,` or `}` was expected and how to write the quote, at the quote, inside an object', () => {
    expect(errorsOf('{"prompt":"say "hi" now"}')).toEqual([
      `${fileName}:1:16: error: expected \`,\` or \`}\` after the string, found \`hi\`: the string ends early at this \`"\`; ${quoteFix}`,
    ]);
  });

  it('says a `,` or `]` was expected inside an array', () => {
    expect(errorsOf('{"evals":[{"prompt":"p","assertions":["uses "strict" mode"]}]}')).toEqual([
      `${fileName}:1:45: error: expected \`,\` or \`]\` after the string, found \`strict\`: the string ends early at this \`"\`; ${quoteFix}`,
    ]);
  });

  it('says a `:` was expected after a property name broken by a quote', () => {
    expect(errorsOf('{"pro"mpt": "p"}')).toEqual([
      `${fileName}:1:6: error: expected \`:\` after the property name, found \`mpt\`: the string ends early at this \`"\`; ${quoteFix}`,
    ]);
  });

  it('keeps the plain message for a stray word that follows no string', () => {
    expect(errorsOf('{"evals": nope}')).toEqual([`${fileName}:1:11: error: unexpected \`n\`; expected a JSON value`]);
  });
});
