import { SkevalError } from '@skeval/schema';
import type { RegexOutcome } from '../regex/regex-runner.js';
import { formatSize, type WorkspaceText } from '../workspace/workspace-reader.js';

const contextChars = 60;

/** `line 3, column 7` of an offset in a text. */
export function position(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

/** The match with some text either side, on one line: `…before [match] after…`. */
export function inContext(text: string, index: number, length: number): string {
  const start = Math.max(0, index - contextChars);
  const end = Math.min(text.length, index + length + contextChars);
  const squash = (part: string) => part.replace(/\s+/g, ' ');
  const before = squash(text.slice(start, index)).trimStart();
  const after = squash(text.slice(index + length, end)).trimEnd();
  return `${start > 0 ? '…' : ''}${before}[${squash(text.slice(index, index + length))}]${after}${end < text.length ? '…' : ''}`;
}

export function quote(value: string, max = 120): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}

export function describePattern(pattern: string, flags = ''): string {
  return `/${pattern}/${flags}`;
}

/** How large a searched text is: `the response (231 characters)`, `greeting.txt (14 bytes, 1 line)`. */
export function describeSearched(where: string, text: string, size?: number): string {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return size === undefined
    ? `${where} (${text.length} characters)`
    : `${where} (${formatSize(size)}, ${lines} line${lines === 1 ? '' : 's'})`;
}

export function truncationNote(file: Extract<WorkspaceText, { status: 'text' }>): string {
  return file.truncated
    ? `; only the first ${formatSize(Buffer.byteLength(file.text))} of ${formatSize(file.size)} were read`
    : '';
}

/** Evidence for a file that could not be read as text, or undefined when it is text. */
export function unreadable(file: WorkspaceText): string | undefined {
  switch (file.status) {
    case 'missing':
      return `${file.path} does not exist in the workspace`;
    case 'folder':
      return `${file.path} is a folder, not a file`;
    case 'refused':
      return file.reason;
    case 'binary':
      return `${file.path} is binary (${formatSize(file.size)}; ${file.reason}), so it was not matched as text`;
    default:
      return undefined;
  }
}

/** What a caught value says: its message when it is an `Error`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A regex outcome that failed to run is an undecided verdict, never a pass or a fail. */
export function settle(
  outcome: RegexOutcome,
  pattern: string,
  flags?: string,
): Exclude<RegexOutcome, { status: 'error' }> {
  if (outcome.status !== 'error') return outcome;
  const timedOut = outcome.message.startsWith('regex timed out');
  throw new SkevalError({
    code: timedOut ? 'grader_timeout' : 'grader_failed',
    message: `${describePattern(pattern, flags)}: ${outcome.message}`,
  });
}
