import type { ReporterOutput } from '@skeval/core';
import type { CliIo } from './io.js';

/** How to write for one of the CLI's streams: whether to colour, and how wide the lines may be. */
export interface TerminalSettings {
  color: boolean;
  width: number;
}

/**
 * Colour and width for stdout or stderr. Colour is on for a terminal and off otherwise;
 * `NO_COLOR` (any non-empty value) or `TERM=dumb` turns it off, and `FORCE_COLOR` turns it on
 * even into a pipe or a file, over `NO_COLOR` as Node's own `FORCE_COLOR` does (`FORCE_COLOR=0`
 * turns it off). The width is the terminal's, 80 columns when there is none.
 */
export function terminalOf(io: CliIo, stream: 'stdout' | 'stderr'): TerminalSettings {
  const isTTY = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const columns = stream === 'stdout' ? io.stdoutColumns : io.stderrColumns;
  return { color: colorOf(io.env, isTTY === true), width: columns && columns > 0 ? columns : 80 };
}

/** stderr as a reporter's live part writes to it: its colour, width and whether it is a terminal. */
export function stderrOutput(io: CliIo): ReporterOutput {
  return { write: io.stderr, ...terminalOf(io, 'stderr'), isTTY: io.stderrIsTTY === true, cwd: io.cwd };
}

function colorOf(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR) return false;
  if (env.NODE_DISABLE_COLORS) return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/**
 * Text with every line longer than `width` wrapped at spaces, its later lines indented as the
 * first: for help texts that commands add in their own words (`Exit codes: …`), which commander
 * prints as they are.
 */
export function wrapLongLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if ([...line].length <= width) return [line];
      const indent = /^ */.exec(line)?.[0] ?? '';
      const lines: string[] = [];
      let current = '';
      for (const word of line.slice(indent.length).split(' ')) {
        const next = current ? `${current} ${word}` : word;
        if (current && [...indent, ...next].length > width) {
          lines.push(indent + current);
          current = word;
        } else current = next;
      }
      return [...lines, indent + current];
    })
    .join('\n');
}
