/**
 * What the lint rules read in a prose claim: the concrete things a script could check, and the
 * words that leave a judge nothing to hold on to.
 */

const fileExtensions =
  'json|jsonl|md|mdx|txt|py|ts|tsx|js|jsx|mjs|cjs|csv|tsv|ya?ml|html?|css|scss|sh|toml|xml|pdf|docx|xlsx|pptx|png|jpe?g|gif|svg|sql|go|rs|java|kt|rb|php|swift|ipynb|lock|ini|cfg|conf|env|log';
const fileNamePattern = new RegExp(
  `(?<![\\w@/.-])((?:[\\w.-]+/)*[\\w-]+(?:\\.[\\w-]+)*\\.(?:${fileExtensions}))(?![\\w-])`,
  'gi',
);
const quotedPattern = /"([^"\n]{1,80})"|“([^”\n]{1,80})”|`([^`\n]{1,80})`|(?<![\w])'([^'\n]{1,80})'(?![\w])/g;

/** File names a claim mentions (`report.json`, `src/app.ts`); product names such as `Node.js` are not files. */
function fileNamesIn(text: string): string[] {
  return [...text.matchAll(fileNamePattern)]
    .map((match) => match[1])
    .filter(
      (name): name is string => name !== undefined && !/^[A-Z][a-z]+\.js$/.test(name) && !/^\d+(\.\d+)+$/.test(name),
    );
}

/** Literal text a claim quotes: "…", “…”, `…` or '…'. */
function quotedLiterals(text: string): string[] {
  return [...text.matchAll(quotedPattern)]
    .map(quotedText)
    .filter((literal): literal is string => literal !== undefined && literal.trim() !== '');
}

/** The text inside whichever quotes a `quotedPattern` match used. */
function quotedText(match: RegExpMatchArray): string | undefined {
  return match[1] ?? match[2] ?? match[3] ?? match[4];
}

/** Whether the claim is about JSON being valid, which `json-valid` checks exactly. */
function mentionsJsonValidity(text: string): boolean {
  return /\b(?:valid|parseable|parsable|well[- ]formed|syntactically correct)\s+JSON\b|\bJSON\b[^.]{0,30}\b(?:parses|is valid|validates)\b/i.test(
    text,
  );
}

const creationVerb =
  /\b(?:creat(?:es?|ed|ing)|writ(?:es?|ing|ten)|wrote|sav(?:es?|ed|ing)|produc(?:es?|ed|ing)|generat(?:es?|ed|ing)|emit(?:s|ted)?|exists?)\b/i;
// Verb forms only where the bare word is usually a noun ("state", "list", "name").
const containmentVerb =
  /\b(?:ha(?:s|ve)|contains?|contained|containing|includ(?:es?|ed|ing)|mention(?:s|ed|ing)?|says?|said|prints?|printed|outputs|returns?|returned|us(?:es?|ed|ing)|lists|listed|listing|names|named|naming|shows?|showed|shown|states|stated|stating|displays?|displayed|responds?|repl(?:y|ies|ied)|begins?|starts? with|ends? with)\b/i;
const runVerb = /\b(?:runs?|ran|executes?|executed|invokes?|invoked|calls?|called)\b/i;
const negation = /\b(?:not|never|no|without|avoid\w*|doesn't|don't|isn't)\b/i;
const negatedContainment =
  /\b(?:does not|doesn't|do not|don't|must not|should not|shouldn't|never|avoids?)\s+(?:\w+\s+)?(?:contain|include|mention|say|use|print|output|return|show|add|write|insert|put|emit)\w*\b/i;
/** A quote set against what is wanted ("not just 'smooth'", "rather than 'OK'") is an example, not a check. */
const contrastBefore = /\b(?:not|no|rather than|instead of|unlike|vs\.?|versus|e\.g\.|like|such as)\b[^.;:]{0,25}$/i;
/** Quotes with placeholders (`[audience]`, `<name>`, `X`) or trailing dots stand for a shape, not a text. */
const placeholderLiteral = /\[[^\]]*\]|<[^>]*>|\{[^}]*\}|\.\.\.|…|\bX\b/;

/** Other tools' checks written as strings (`contains:x`, `matches:re`, `exists:path`): the judge would read them as prose. */
const checkPrefixes: Record<string, (argument: string) => Record<string, unknown>> = {
  contains: (value) => ({ kind: 'output', method: 'contains', value }),
  icontains: (value) => ({ kind: 'output', method: 'icontains', value }),
  not_contains: (value) => ({ kind: 'output', method: 'not-contains', value }),
  'not-contains': (value) => ({ kind: 'output', method: 'not-contains', value }),
  matches: (pattern) => ({ kind: 'output', method: 'regex', pattern }),
  regex: (pattern) => ({ kind: 'output', method: 'regex', pattern }),
  equals: (value) => ({ kind: 'output', method: 'exact', value }),
  exists: (path) => ({ kind: 'workspace', method: 'file-exists', path }),
  file_exists: (path) => ({ kind: 'workspace', method: 'file-exists', path }),
};

function prefixedCheck(text: string): { reason: string; suggestion: Record<string, unknown> } | undefined {
  const [, prefix, argument] = /^\s*([a-z_-]+):(?!\/\/)\s*(\S.*)$/s.exec(text) ?? [];
  const make = prefix === undefined ? undefined : checkPrefixes[prefix.toLowerCase()];
  if (argument === undefined || !make) return undefined;
  return {
    reason: `this \`${prefix}:\` check, written as a string the judge would read as prose`,
    suggestion: make(argument.trim()),
  };
}

type ScriptableCheck = { reason: string; suggestion: Record<string, unknown> };

/** A check a script could make instead of the judge, read from the claim, or undefined. */
export function scriptableCheck(text: string): ScriptableCheck | undefined {
  return prefixedCheck(text) ?? jsonCheck(text) ?? fileCheck(text) ?? literalCheck(text);
}

function jsonCheck(text: string): ScriptableCheck | undefined {
  if (!mentionsJsonValidity(text)) return undefined;
  const file = fileNamesIn(text).find((name) => /\.json$/i.test(name));
  return file
    ? { reason: `whether ${file} is valid JSON`, suggestion: { kind: 'workspace', method: 'json-valid', path: file } }
    : { reason: 'whether the response is valid JSON', suggestion: { kind: 'output', method: 'json-valid' } };
}

/** "Creates report.json", "merged.json is written": the file the verb is about, checked for existence. */
function fileCheck(text: string): ScriptableCheck | undefined {
  // File names inside a quoted command (`'python audit.py x'`) are what it runs, not what it makes.
  const outsideCommands = text.replace(quotedPattern, (quoted) =>
    /\s/.test(quoted.trim()) ? ' '.repeat(quoted.length) : quoted,
  );
  const files = [...outsideCommands.matchAll(fileNamePattern)]
    .flatMap((match) => (match[1] === undefined ? [] : [{ name: match[1], index: match.index }]))
    .filter(({ name }) => fileNamesIn(name).length > 0);
  // The verbs are looked for with the file names blanked out (`save_report.py` is not "save").
  const prose = files.reduce(
    (rest, file) =>
      rest.slice(0, file.index) + ' '.repeat(file.name.length) + rest.slice(file.index + file.name.length),
    outsideCommands,
  );
  const verb = creationVerb.exec(prose);
  if (!verb || negation.test(prose)) return undefined;
  const file = files.find((candidate) => candidate.index > verb.index) ?? files.at(-1);
  if (!file) return undefined;
  return {
    reason: `whether ${file.name} exists`,
    suggestion: { kind: 'workspace', method: 'file-exists', path: file.name },
  };
}

/** A quoted text the reply must hold (or leave out), a command the agent must run, or a text a file must hold. */
function literalCheck(text: string): ScriptableCheck | undefined {
  const prose = text.replace(quotedPattern, ' ');
  if (!containmentVerb.test(prose) && !runVerb.test(prose)) return undefined;
  for (const match of text.matchAll(quotedPattern)) {
    const literal = quotedText(match);
    const before = text.slice(0, match.index);
    // A lone lowercase word ("start") is found in too many answers to be a check.
    if (literal === undefined || literal.trim() === '' || placeholderLiteral.test(literal) || /^[a-z]+$/.test(literal))
      continue;
    if (
      negatedContainment.test(before) ||
      /\b(?:avoids?|avoiding|without|omits?|excludes?|never uses?)\s+(?:the\s+|any\s+)?$/i.test(before)
    ) {
      return {
        reason: `that the response leaves out "${literal}"`,
        suggestion: { kind: 'output', method: 'not-contains', value: literal },
      };
    }
    // A quote after "or" is one of two acceptable answers, not a text that must be there.
    if (contrastBefore.test(before) || /\bor\s+(?:\w+\s+)?$/i.test(before)) continue;
    // 'references/' in "the folder structure includes 'references/'" is a folder in the workspace.
    if (/^(?:[\w.-]+\/)+$/.test(literal))
      return {
        reason: `whether the folder ${literal} exists`,
        suggestion: { kind: 'workspace', method: 'file-exists', path: literal.replace(/\/$/, '') },
      };
    if (/\s/.test(literal.trim()) && new RegExp(`${runVerb.source}\\s*$`, 'i').test(before)) {
      return {
        reason: `that the agent ran \`${literal}\``,
        suggestion: { kind: 'behavior', method: 'command-ran', pattern: escapeRegExp(literal) },
      };
    }
    // "… at the top of the file": the text is looked for in a file, not in the reply.
    if (/\b(?:in|inside|at (?:the )?(?:top|start|end) of|of) (?:the |each |every |a |that )?files?\b/i.test(prose)) {
      const file = fileNamesIn(text)[0];
      return {
        reason: `that ${file ?? 'the file'} contains "${literal}"`,
        suggestion: { kind: 'workspace', method: 'file-contains', path: file ?? '<the file>', value: literal },
      };
    }
    if (containmentVerb.test(prose))
      return {
        reason: `that the response contains "${literal}"`,
        suggestion: { kind: 'output', method: 'contains', value: literal },
      };
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const vagueWords =
  /\b(?:good|well|properly|proper|correct(?:ly)?|appropriate(?:ly)?|helpful|clear(?:ly)?|reasonabl[ey]|adequate(?:ly)?|nice(?:ly)?|sensibl[ey]|makes sense|accurate(?:ly)?|relevant|useful|(?:high|good|low)[- ]quality|comprehensive(?:ly)?|thorough(?:ly)?|fine|okay|as expected|effective(?:ly)?|meaningful|sufficient(?:ly)?|robust)\b/i;
/** A verb whose object is a pronoun or "the task": "should explain it", "handles the request well". */
const pronounObject =
  /\b(?:explain|describe|handle|address|cover|discuss|mention|do|does|did|get|gets|fix|fixes|answer|answers|understand)s?\s+(?:it|this|that|them|things|everything|stuff|the (?:question|task|request|problem|issue|topic))(?=\s*(?:[.,;!?)]|$|\s+(?:well|properly|correctly|clearly|fully|right|appropriately)\b))/i;
/** A vague qualifier only makes a claim vague when little else is said. */
const maxVagueWords = 7;

/**
 * Something concrete a judge can look for: quoted text, code, a file name, a number, a URL, an
 * identifier or a proper noun (a capitalised word past the first).
 */
function concreteAnchors(text: string): string[] {
  const anchors = [...quotedLiterals(text), ...fileNamesIn(text)];
  for (const match of text.matchAll(
    /https?:\/\/\S+|\b\d[\d.,%]*\b|--?[a-z][\w-]+|\b[a-z]+[A-Z]\w*\b|\b\w+_\w+\b|\b\w+\(\)|\B\/[\w./-]+|\b[A-Z]{2,}\b|\b\w+=\S+|\b\w+\/\w+\b|\([^)]*,[^)]*\)/g,
  ))
    anchors.push(match[0]);
  const words = text.split(/\s+/);
  words.forEach((word, index) => {
    const previous = words[index - 1] ?? '';
    if (index > 0 && !/[.!?:]$/.test(previous) && /^[("']?[A-Z][a-z]/.test(word) && !/^(?:I|The|A|An)\b/.test(word))
      anchors.push(word.replace(/[^\w-]/g, ''));
  });
  return anchors;
}

/** Why a claim leaves the judge nothing to check, or undefined when it names something concrete. */
export function vagueness(text: string): string | undefined {
  // The word lists are English; other languages are not judged by them.
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.filter((letter) => /[a-z]/i.test(letter)).length < letters.length * 0.8) return undefined;
  if (concreteAnchors(text).length > 0) return undefined;
  const pronoun = pronounObject.exec(text);
  if (pronoun) return `"${pronoun[0]}" does not say what`;
  const words = text.trim().split(/\s+/).length;
  const vague = vagueWords.exec(text);
  if (vague && words <= maxVagueWords) return `"${vague[0]}" is a judgement with nothing named to judge it by`;
  if (words <= 2) return 'two words or fewer do not say what to look for';
  return undefined;
}
