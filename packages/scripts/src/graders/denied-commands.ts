/**
 * Commands refused by default: destructive deletes, force pushes, piping a download into a shell.
 *
 * Each rule reads a command as words in segments, in one pass: a command is agent text of any
 * length, and a regular expression such as `\bgit\s+push\b[^;&|\n]*\s--force` rescans the rest
 * of the line from every `git push` in it, seconds of blocked main thread for a long command.
 */
export const defaultDeniedCommands: ReadonlyArray<{ rule: string; matches: (command: string) => boolean }> = [
  { rule: 'recursive forced delete (rm -rf)', matches: isRecursiveForcedDelete },
  { rule: 'force push (git push --force)', matches: isForcePush },
  { rule: 'download piped into a shell (curl | sh)', matches: isDownloadPipedIntoShell },
];

/** The words of each segment of a command, split at `;`, `&&`, `||`, `|`, `&` and newlines. */
function segments(command: string, separators: RegExp = /[;&|\n]/): string[][] {
  return command.split(separators).map((segment) => segment.trim().split(/\s+/).filter(Boolean));
}

/** A word that names a program: `git`, `/usr/bin/git`. */
const isProgram = (word: string | undefined, name: string) => word === name || word?.endsWith(`/${name}`) === true;

/** `rm` with both a recursive and a force flag, in any spelling: `-rf`, `-fr`, `-r -f`, `--recursive --force`. */
function isRecursiveForcedDelete(command: string): boolean {
  return segments(command).some((words) => {
    const at = words.findIndex((word) => isProgram(word, 'rm'));
    if (at === -1) return false;
    const flags = words.slice(at + 1).filter((word) => word.startsWith('-'));
    const short = flags.filter((flag) => !flag.startsWith('--')).join('');
    const recursive = /[rR]/.test(short) || flags.includes('--recursive');
    const force = short.includes('f') || flags.includes('--force');
    return recursive && force;
  });
}

/** `git push` with `--force`, `--force-with-lease`, `-f` or a `+refspec` in the same segment. */
function isForcePush(command: string): boolean {
  return segments(command).some((words) => {
    const at = words.findIndex((word, index) => isProgram(word, 'git') && /^push\b/.test(words[index + 1] ?? ''));
    if (at === -1) return false;
    return words.slice(at + 2).some((word) => word.startsWith('--force') || /^-f\b/.test(word) || /^\+\S/.test(word));
  });
}

/** A stage that runs `curl` or `wget`, piped straight into a shell (`sh`, `bash`, `zsh`, `dash`, `ksh`, with `sudo`). */
function isDownloadPipedIntoShell(command: string): boolean {
  return command.split(/[;&\n]/).some((statement) => {
    const stages = statement.split('|');
    return stages.some(
      (stage, index) =>
        /\b(?:curl|wget)\b/.test(stage) && /^\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/.test(stages[index + 1] ?? ''),
    );
  });
}
