import { awkDataFiles, lineCount, lineOffset, sedReadPaths } from './file-readers.js';

// Pipeline stages that only reshape output; Codex ignores them so `rg --files | wc -l` is still a listing.
const alwaysFormatting = new Set(['wc', 'tr', 'cut', 'sort', 'uniq', 'tee', 'column', 'yes', 'printf']);

/** A pipeline stage Codex leaves out of its summary: it only reshapes the output of the stage before it. */
export function isFormattingHelper(words: string[]): boolean {
  const [name = '', ...rest] = words;
  if (alwaysFormatting.has(name)) return true;
  switch (name) {
    // Only a read-only xargs gets here: mayChangeFiles has already rejected the rest.
    case 'xargs':
      return true;
    case 'awk':
      return awkDataFiles(rest).length === 0;
    case 'head':
      return isCountOnly(rest, lineCount);
    case 'tail':
      return isCountOnly(rest, lineOffset);
    case 'sed':
      return sedReadPaths(rest) === undefined;
    default:
      return false;
  }
}

/** `head`/`tail` with no file operand, e.g. `head`, `head -n40`, `tail -n +10`, `tail -c 100`. */
function isCountOnly(rest: string[], count: RegExp): boolean {
  const [first, second] = rest;
  if (first === undefined) return true;
  if (second === undefined) return first.startsWith('-');
  return rest.length === 2 && (first === '-n' || first === '-c') && count.test(second);
}
