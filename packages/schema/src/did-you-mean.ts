/**
 * The known name a mistyped one most likely meant (`promt` → `prompt`, `file-contians` →
 * `file-contains`): the nearest by edit distance, ignoring case, `-` and `_`, when it is near
 * enough (at most 2 edits, or a quarter of the name's length); else undefined. One helper for
 * every "did you mean" Skeval prints (config keys, case keys, grader methods).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const normal = (text: string) => text.toLowerCase().replace(/[-_]/g, '');
  const target = normal(name);
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(target, normal(candidate));
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.candidate : undefined;
}

/** `` (did you mean `prompt`?)`` for a near miss, else the empty string. */
export function didYouMean(name: string, known: readonly string[]): string {
  const candidate = closestName(name, known);
  return candidate === undefined ? '' : ` (did you mean \`${candidate}\`?)`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= b.length; column += 1) {
      const substitution = (previous[column - 1] ?? 0) + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
