import { createScanner, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { parseIndexed } from './json-offsets.js';

// jsonc-parser declares its token kinds as const enums, which isolated modules cannot read;
// these are its SyntaxKind values.
const token = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  comma: 5,
  colon: 6,
  string: 10,
  endOfFile: 17,
} as const;
type ParseErrorName = ReturnType<typeof printParseErrorCode>;

/** A parsed JSON text that can say where any value of it sits. */
export interface JsonDocument {
  value: unknown;
  /** Offset of the value at `path` (or of its key, with `key: true`); the deepest existing ancestor when it is absent. */
  offsetOf(path: ReadonlyArray<string | number>, options?: { key?: boolean }): number;
  /** Properties that appear twice in one object: the later one wins, as in `JSON.parse`. */
  duplicateKeys(): Array<{ path: Array<string | number>; key: string; offset: number }>;
}

interface JsonSyntaxProblem {
  kind: 'json-syntax' | 'json-comment' | 'trailing-comma' | 'too-deep';
  message: string;
  offset: number;
}

export type ParsedJson = { ok: true; document: JsonDocument } | { ok: false; problems: JsonSyntaxProblem[] };

/** Deeper nesting than this is refused before parsing, so no input can exhaust the stack. */
const maxJsonDepth = 100;
const maxReportedSyntaxProblems = 25;

export function parseJsonDocument(text: string): ParsedJson {
  const deepAt = findExcessiveNesting(text);
  if (deepAt !== undefined) {
    return {
      ok: false,
      problems: [
        {
          kind: 'too-deep',
          offset: deepAt,
          message: `JSON is nested deeper than ${maxJsonDepth} levels here; an evals file needs far fewer`,
        },
      ],
    };
  }
  const { errors, document } = parseIndexed(text, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || document === undefined) {
    // Comments and trailing commas leave the parser in step, so every one is reported; after
    // any other syntax error what follows is mostly echo, so reporting stops there.
    const problems: JsonSyntaxProblem[] = [];
    const seenOffsets = new Set<number>();
    for (const error of errors) {
      if (seenOffsets.has(error.offset)) continue;
      seenOffsets.add(error.offset);
      const problem = describeSyntaxError(text, error);
      problems.push(problem);
      if (problem.kind === 'json-syntax' || problems.length >= maxReportedSyntaxProblems) break;
    }
    return { ok: false, problems };
  }
  return { ok: true, document };
}

function findExcessiveNesting(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind: number = scanner.scan(); kind !== token.endOfFile; kind = scanner.scan()) {
    if (kind === token.openBrace || kind === token.openBracket) {
      depth += 1;
      if (depth > maxJsonDepth) return scanner.getTokenOffset();
    } else if (kind === token.closeBrace || kind === token.closeBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

function describeSyntaxError(text: string, error: ParseError): JsonSyntaxProblem {
  const { offset } = error;
  const character = text[offset];
  const found = character === undefined ? 'the end of the file' : `\`${character}\``;
  const name = printParseErrorCode(error.error);
  if (name === 'InvalidCommentToken') {
    return {
      kind: 'json-comment',
      offset,
      message: 'JSON does not allow comments; remove it (evals.json is read by other tools as strict JSON)',
    };
  }
  if ((name === 'ValueExpected' || name === 'PropertyNameExpected') && (character === '}' || character === ']')) {
    const commaOffset = previousNonSpace(text, offset);
    if (text[commaOffset] === ',') {
      return {
        kind: 'trailing-comma',
        offset: commaOffset,
        message: `trailing comma before \`${character}\`; JSON does not allow it: remove the comma`,
      };
    }
  }
  if ((name === 'InvalidSymbol' || name === 'CommaExpected') && character !== undefined) {
    const early = describeEarlyClosedString(text, offset, character);
    if (early) return early;
  }
  const messages: Partial<Record<ParseErrorName, string>> = {
    InvalidSymbol: `unexpected ${found}; expected a JSON value`,
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: `expected a property name in double quotes, found ${found}`,
    ValueExpected: `expected a value, found ${found}`,
    ColonExpected: `expected \`:\` after the property name, found ${found}`,
    CommaExpected: `expected \`,\` or a closing bracket, found ${found}`,
    CloseBraceExpected: `expected \`}\` to close the object, found ${found}`,
    CloseBracketExpected: `expected \`]\` to close the array, found ${found}`,
    EndOfFileExpected: `unexpected ${found} after the end of the JSON value`,
    UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string: add the closing `"`',
    UnexpectedEndOfNumber: 'the number ends too early',
    InvalidUnicode: 'invalid `\\u` escape: it needs four hex digits',
    InvalidEscapeCharacter: 'invalid escape in a string; escape a backslash as `\\\\`',
    InvalidCharacter: 'a control character (such as a raw newline or tab) inside a string; write it as `\\n` or `\\t`',
  };
  return { kind: 'json-syntax', offset, message: messages[name] ?? `invalid JSON (${name})` };
}

/**
 * A string followed by letters or digits was most likely closed early by a `"` meant to be part
 * of it (`"say "hi" now"`): the parser then trips on `hi`. Says what was expected after a string
 * there, and how to write the quote; located at the quote that ended the string.
 */
function describeEarlyClosedString(text: string, offset: number, character: string): JsonSyntaxProblem | undefined {
  if (!/[\p{L}\p{N}_]/u.test(character)) return undefined;
  const scanner = createScanner(text, true);
  const open: number[] = [];
  let previous: number = token.endOfFile;
  let last: number = token.endOfFile;
  let lastEnd = 0;
  for (let kind: number = scanner.scan(); kind !== token.endOfFile; kind = scanner.scan()) {
    if (scanner.getTokenOffset() >= offset) break;
    if (kind === token.openBrace || kind === token.openBracket) open.push(kind);
    else if (kind === token.closeBrace || kind === token.closeBracket) open.pop();
    previous = last;
    last = kind;
    lastEnd = scanner.getTokenOffset() + scanner.getTokenLength();
  }
  if (last !== token.string || text.slice(lastEnd, offset).trim() !== '') return undefined;
  const container = open[open.length - 1];
  const isKey = container === token.openBrace && (previous === token.openBrace || previous === token.comma);
  const expected = isKey
    ? '`:` after the property name'
    : container === token.openBrace
      ? '`,` or `}` after the string'
      : container === token.openBracket
        ? '`,` or `]` after the string'
        : 'the end of the file after the string';
  const word = /^[\p{L}\p{N}_]+/u.exec(text.slice(offset))?.[0] ?? character;
  return {
    kind: 'json-syntax',
    offset: lastEnd - 1,
    message: `expected ${expected}, found \`${word}\`: the string ends early at this \`"\`; a \`"\` inside a string must be written \`\\"\` (for example "say \\"hi\\" now")`,
  };
}

function previousNonSpace(text: string, offset: number): number {
  let index = offset - 1;
  while (index >= 0 && /\s/.test(text.charAt(index))) index -= 1;
  return index;
}
