/**
 * Where a reporter's live part writes while a result is being made (the CLI's stderr), and how:
 * colour, width, and whether it is a terminal that can redraw a status line in place.
 */
export interface ReporterOutput {
  /** Writes text as it is: no line break is added. */
  write(text: string): void;
  /** Colour the text (the caller decides: a terminal, `NO_COLOR`, `FORCE_COLOR`). @default false */
  color?: boolean;
  /** The width in columns. @default 80 */
  width?: number;
  /** A terminal: the live part keeps a status line under the finished ones and redraws it. @default false */
  isTTY?: boolean;
  /** The clock elapsed times and estimates are measured with. @default Date.now */
  now?: () => number;
  /** Paths inside it are shown relative to it. */
  cwd?: string;
}

/**
 * One reporter, after vitest's `Reporter`: a name, an optional live part fed the progress
 * events while the result is made (the progress line is the terminal reporter's), and a render
 * of the result. Rendering is pure: what is drawn depends on the result and the options alone,
 * and the caller decides where the text goes (core never prints).
 */
export interface Reporter<Result, Options = object, Event = never> {
  /** What the reporter is called: the name `--reporter` takes, or the command it reports. */
  readonly name: string;
  /** The live part: a listener for the progress events of one run, writing to `output`. */
  live?: (output: ReporterOutput) => (event: Event) => void;
  /** The result as text, ending in a line break (empty when there is nothing to say). */
  render: (result: Result, options?: Options) => string;
}
