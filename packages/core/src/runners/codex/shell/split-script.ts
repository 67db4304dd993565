/**
 * Splits a script into the words of each command, joined by `&&`, `||`, `;`, `|` or newlines. Returns undefined for
 * anything Codex refuses to summarise: redirects, `$` expansions, substitutions, subshells, background jobs,
 * comments, unbalanced quotes, or an operator with no command on one side.
 */
export function splitScript(script: string): string[][] | undefined {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  // A quoted empty string is still a word, so emptiness of `word` cannot tell us whether one started.
  let wordStarted = false;
  // After `&&`, `||` or `|` a command must follow, possibly on the next line.
  let awaitingCommand = false;
  const finishWord = () => {
    if (!wordStarted) return;
    words.push(word);
    word = '';
    wordStarted = false;
  };
  const finishCommand = (): boolean => {
    finishWord();
    if (words.length === 0) return false;
    commands.push(words);
    words = [];
    return true;
  };

  let index = 0;
  while (index < script.length) {
    const character = script.charAt(index);
    const next = script.charAt(index + 1);
    if (character === ' ' || character === '\t' || character === '\r') {
      finishWord();
      index += 1;
    } else if (character === '\n') {
      finishWord();
      if (words.length > 0) {
        finishCommand();
        awaitingCommand = false;
      }
      index += 1;
    } else if (character === "'") {
      const closing = script.indexOf("'", index + 1);
      if (closing === -1) return undefined;
      word += script.slice(index + 1, closing);
      wordStarted = true;
      index = closing + 1;
    } else if (character === '"') {
      const quoted = readDoubleQuoted(script, index + 1);
      if (quoted === undefined) return undefined;
      word += quoted.text;
      wordStarted = true;
      index = quoted.end;
    } else if (character === '\\') {
      if (index + 1 >= script.length) return undefined;
      // A backslash-newline joins lines rather than producing a character.
      if (next !== '\n') {
        word += next;
        wordStarted = true;
      }
      index += 2;
    } else if (character === '&') {
      if (next !== '&' || !finishCommand()) return undefined;
      awaitingCommand = true;
      index += 2;
    } else if (character === '|') {
      if (next === '&' || !finishCommand()) return undefined;
      awaitingCommand = true;
      index += next === '|' ? 2 : 1;
    } else if (character === ';') {
      if (next === ';' || !finishCommand()) return undefined;
      awaitingCommand = false;
      index += 1;
    } else if ('$`()<>'.includes(character) || (character === '#' && !wordStarted)) {
      return undefined;
    } else {
      word += character;
      wordStarted = true;
      index += 1;
    }
  }
  finishWord();
  if (words.length > 0) commands.push(words);
  else if (awaitingCommand) return undefined;
  return commands;
}

/** Reads a double-quoted string starting after its opening quote; undefined if unterminated or expanding. */
function readDoubleQuoted(script: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  let cursor = start;
  while (cursor < script.length) {
    const character = script.charAt(cursor);
    if (character === '"') return { text, end: cursor + 1 };
    if (character === '$' || character === '`') return undefined;
    if (character === '\\') {
      const escaped = script.charAt(cursor + 1);
      if (escaped === '"' || escaped === '\\' || escaped === '$' || escaped === '`') {
        text += escaped;
        cursor += 2;
        continue;
      }
      if (escaped === '\n') {
        cursor += 2;
        continue;
      }
    }
    text += character;
    cursor += 1;
  }
  return undefined;
}
