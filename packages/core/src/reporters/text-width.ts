/**
 * Text laid out for a terminal: how many columns a string takes, cut to a width with "…",
 * wrapped at spaces, and made safe to print (what the agent or the judge wrote can hold
 * control characters that would move the cursor or recolour the terminal).
 */

// Characters a terminal draws two columns wide (East Asian wide and full-width forms, emoji),
// and those it draws over the previous one (combining marks, joiners, variation selectors).
const wide =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|\p{Extended_Pictographic}/u;
const zeroWidth = /\p{M}|\p{Cf}/u;

/** The columns `text` takes on a terminal (no escape sequences in it: measure before styling). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += zeroWidth.test(character) ? 0 : wide.test(character) ? 2 : 1;
  return width;
}

/** `text` cut to at most `width` columns, ending in "…" when something was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let kept = '';
  let used = 0;
  for (const character of text) {
    const columns = displayWidth(character);
    if (used + columns > width - 1) break;
    kept += character;
    used += columns;
  }
  return `${kept}…`;
}

/** Pads to `width` columns (on the right, or on the left for `align: 'right'`). */
export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? `${fill}${text}` : `${text}${fill}`;
}

/**
 * Lines of at most `width` columns, broken at spaces; a word longer than a whole line (a path,
 * a hash) is the only thing ever broken inside.
 */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (displayWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (displayWidth(line) > width) {
      const head = sliceColumns(line, width);
      lines.push(head);
      line = line.slice(head.length);
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/** At most `maxLines` wrapped lines; the last ends in "…" when the text goes on. */
export function boundedLines(text: string, width: number, maxLines: number): string[] {
  const lines = wrapWords(text, width);
  if (lines.length <= maxLines) return lines;
  // The last line kept and the next one never fit together (else they would be one line), so
  // cutting them to the width ends the last line in "…".
  const kept = lines.slice(0, maxLines - 1);
  kept.push(truncate(`${lines[maxLines - 1] ?? ''} ${lines[maxLines] ?? ''}`, width));
  return kept;
}

/**
 * One line, safe to print: runs of whitespace become one space, and every other control
 * character (an escape sequence's ESC, a NUL, a bell) is shown as its code, `\u001b`.
 */
export function printable(text: string): string {
  return text
    .replace(/[\t\n\r\f\v ]+/g, ' ')
    .replace(
      /\p{Cc}|[\u2028\u2029]/gu,
      (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
    )
    .trim();
}

function sliceColumns(text: string, width: number): string {
  let kept = '';
  for (const character of text) {
    if (displayWidth(kept + character) > width) break;
    kept += character;
  }
  return kept || [...text][0] || '';
}
