import { positionalOperands } from './positional-operands.js';

/** The programs Codex counts as listing files, each with the paths a call of it lists. */
export const fileListers: ReadonlyMap<string, (rest: string[]) => string[]> = new Map([
  [
    'ls',
    (rest: string[]) =>
      positionalOperands(rest, ['-I', '-w', '--block-size', '--format', '--time-style', '--color', '--quoting-style']),
  ],
  ['eza', ezaPaths],
  ['exa', ezaPaths],
  ['tree', (rest: string[]) => positionalOperands(rest, ['-L', '-P', '-I', '--charset', '--filelimit', '--sort'])],
  [
    'du',
    (rest: string[]) =>
      positionalOperands(rest, ['-d', '--max-depth', '-B', '--block-size', '--exclude', '--time-style']),
  ],
]);

function ezaPaths(rest: string[]): string[] {
  return positionalOperands(rest, ['-I', '--ignore-glob', '--color', '--sort', '--time-style', '--time']);
}

/** A `python -c` whose code walks the file tree (`os.walk`, `glob.glob`, `pathlib.Path`…): Codex calls it a listing. */
export function isPythonListing(name: string, rest: string[]): boolean {
  if (!/^python([23](\..*)?)?$/.test(name)) return false;
  const codeIndex = rest.indexOf('-c');
  const code = codeIndex === -1 ? undefined : rest[codeIndex + 1];
  if (code === undefined) return false;
  return ['os.walk', 'os.listdir', 'os.scandir', 'glob.glob', 'glob.iglob', 'pathlib.Path', '.rglob('].some((call) =>
    code.includes(call),
  );
}
