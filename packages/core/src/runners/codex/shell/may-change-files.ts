import { positionalOperands } from './positional-operands.js';

// Programs `xargs` may run without the pipeline becoming "something else": the ones this module understands.
const xargsHarmlessPrograms = new Set([
  'cat',
  'bat',
  'batcat',
  'less',
  'more',
  'head',
  'tail',
  'nl',
  'sed',
  'awk',
  'ls',
  'eza',
  'exa',
  'tree',
  'du',
  'rg',
  'rga',
  'ripgrep-all',
  'grep',
  'egrep',
  'fgrep',
  'ag',
  'ack',
  'pt',
  'fd',
  'find',
  'wc',
  'tr',
  'cut',
  'sort',
  'uniq',
  'column',
  'printf',
  'echo',
]);

const findActions = new Set([
  '-delete',
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);

// These checks go beyond Codex, whose parser only describes commands for display; here the answer feeds
// graders, so a stage that edits files or runs an arbitrary program through xargs makes the command a plain shell call.
export function mayChangeFiles(words: string[]): boolean {
  const [name = '', ...rest] = words;
  switch (name) {
    case 'sed':
      return rest.some(isInPlaceFlag);
    case 'tee':
      return positionalOperands(rest, []).length > 0;
    case 'sort':
      return rest.some((word) => word === '--output' || word.startsWith('--output=') || /^-[a-zA-Z]*o/.test(word));
    case 'find':
      return rest.some((word) => findActions.has(word));
    case 'xargs': {
      const program = xargsProgram(rest);
      if (program === undefined) return false;
      const [programName = '', ...programRest] = program;
      if (!xargsHarmlessPrograms.has(programName)) return true;
      // Codex itself counts `xargs rg --replace` as mutating, so keep that even though rg only prints.
      return mayChangeFiles(program) || (programName === 'rg' && programRest.includes('--replace'));
    }
    default:
      return false;
  }
}

function isInPlaceFlag(word: string): boolean {
  return word === '--in-place' || word.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(word);
}

/** The command `xargs` runs, skipping xargs' own options (some of which take a value). */
function xargsProgram(rest: string[]): string[] | undefined {
  let index = 0;
  while (index < rest.length) {
    const word = rest[index] ?? '';
    if (word === '--') return index + 1 < rest.length ? rest.slice(index + 1) : undefined;
    if (!word.startsWith('-')) return rest.slice(index);
    index += ['-E', '-e', '-I', '-L', '-n', '-P', '-s'].includes(word) ? 2 : 1;
  }
  return undefined;
}
