import type { IssueSink, JsonPath } from './issue-sink.js';

/** The letters `regexFlagsSchema` allows; flags with others are reported by the schema. */
const knownFlagLetters = /^[dgimsuvy]*$/;

/** Which fields of each built-in check hold regular expressions, and where their flags are. */
const regexFieldsByGrader: Readonly<Record<string, ReadonlyArray<{ field: string; flags?: string; list?: boolean }>>> =
  {
    'regex-match': [{ field: 'pattern', flags: 'flags' }],
    'output-regex': [{ field: 'pattern', flags: 'flags' }],
    'workspace-file-contains': [{ field: 'pattern', flags: 'flags' }],
    'behavior-tool-called': [{ field: 'argsPattern', flags: 'flags' }],
    'behavior-tool-not-called': [{ field: 'argsPattern', flags: 'flags' }],
    'behavior-command-ran': [{ field: 'pattern', flags: 'flags' }],
    'behavior-command-not-run': [{ field: 'pattern', flags: 'flags' }],
    'safety-no-denied-commands': [{ field: 'deny', list: true }],
  };

/**
 * Compiles every regular expression of a check, so a bad pattern or bad flags is a load error
 * located at the field. Bad flags do not hide a bad pattern: the pattern is then compiled without
 * them. Flags with letters JavaScript does not know are left to the schema, which names them.
 * Returns false when one does not compile.
 */
export function checkRegexFields(
  grader: string,
  value: Record<string, unknown>,
  place: { path: JsonPath; sink: IssueSink },
): boolean {
  let ok = true;
  for (const { field, flags: flagsField, list } of regexFieldsByGrader[grader] ?? []) {
    const flagsValue = flagsField ? value[flagsField] : undefined;
    let flags = typeof flagsValue === 'string' ? flagsValue : '';
    if (flagsField && flags && !compiles('', flags)) {
      if (knownFlagLetters.test(flags)) {
        place.sink.error(
          'invalid-regex',
          [...place.path, flagsField],
          `invalid regular expression flags ${JSON.stringify(flags)}: ${compileError('', flags)}`,
        );
      }
      ok = false;
      flags = '';
    }
    const fieldValue = value[field];
    const patterns: unknown[] = list ? (Array.isArray(fieldValue) ? fieldValue : []) : [fieldValue];
    patterns.forEach((pattern, index) => {
      if (typeof pattern !== 'string') return;
      const error = compileError(pattern, flags);
      if (error) {
        place.sink.error(
          'invalid-regex',
          list ? [...place.path, field, index] : [...place.path, field],
          `\`${field}\` does not compile: ${error}`,
        );
        ok = false;
      }
    });
  }
  return ok;
}

function compiles(pattern: string, flags: string): boolean {
  return compileError(pattern, flags) === undefined;
}

function compileError(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
