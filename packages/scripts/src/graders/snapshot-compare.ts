import { createHash } from 'node:crypto';
import { formatSize, type WorkspaceReader, type WorkspaceText } from '../workspace/workspace-reader.js';
import { unreadable } from './evidence.js';

/** One file's diff may take this long; the diff runs in slices, so the process stays responsive meanwhile. */
const diffTimeoutMs = 1000;
/** Past this many changed lines a diff is not worth computing for evidence cut at a few thousand characters. */
const maxEditLength = 5000;

/** One side of a compared file: the folder it is read from and its path there. */
export interface SnapshotSide {
  reader: WorkspaceReader;
  path: string;
}

/**
 * How the expected and actual file differ, or undefined when they are the same. `showDiff`
 * false (the evidence is already full) says only that they differ. A diff that would run past
 * its bound becomes "files differ too much to show" with their sizes: still a difference.
 */
export async function compareFiles(
  file: string,
  expected: SnapshotSide,
  actual: SnapshotSide,
  showDiff: boolean,
): Promise<string | undefined> {
  const want = expected.reader.readText(expected.path);
  const got = actual.reader.readText(actual.path);
  if (want.status === 'text' && got.status === 'text') {
    // Past the read limit only a prefix was read: equal prefixes say nothing about the rest.
    if (want.truncated || got.truncated) {
      if (want.size === got.size && hashOf(expected) === hashOf(actual)) return undefined;
      return `${file}: files differ (${describeSize(want)} expected, ${describeSize(got)} in the workspace; larger than the read limit, so not shown)`;
    }
    if (want.text === got.text) return undefined;
    if (!showDiff) return `${file}: files differ`;
    const patch = await boundedPatch(file, want.text, got.text);
    return (
      patch ??
      `${file}: files differ too much to show (expected: ${describeSize(want)}; in the workspace: ${describeSize(got)})`
    );
  }
  if (want.status === 'binary' && got.status === 'binary')
    return `${file}: binary files are not compared; leave them out with \`ignore\``;
  return `${file}: ${unreadable(got) ?? unreadable(want) ?? 'one side is text and the other binary'}`;
}

/**
 * A unified diff, or undefined when it would take more than the time or edit bound. The diff
 * library loads on the first diff: a command that only reads evals files never compiles it.
 */
async function boundedPatch(file: string, want: string, got: string): Promise<string | undefined> {
  const { createTwoFilesPatch } = await import('diff');
  return new Promise((resolve) => {
    // The callback form runs the diff in slices between turns of the event loop.
    createTwoFilesPatch(`expected/${file}`, `actual/${file}`, want, got, '', '', {
      context: 2,
      timeout: diffTimeoutMs,
      maxEditLength,
      callback: resolve,
    });
  });
}

function describeSize(file: Extract<WorkspaceText, { status: 'text' }>): string {
  const lines = file.text === '' ? 0 : file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
  return `${lines.toLocaleString('en-US')}${file.truncated ? '+' : ''} line${lines === 1 ? '' : 's'}, ${formatSize(file.size)}`;
}

/** The SHA-256 of a whole file, past the text read limit. */
function hashOf(side: SnapshotSide): string {
  const hash = createHash('sha256');
  side.reader.readChunks(side.path, { overlapBytes: 0 }, (chunk) => {
    hash.update(chunk);
    return undefined;
  });
  return hash.digest('hex');
}
