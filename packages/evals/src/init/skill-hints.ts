/** What a skill's description says that a starter evals file can use. */
export interface SkillHints {
  /**
   * The requests the skill is for, as the description lists them after "Use when …" ("a
   * greeting", "a welcome note"); else its first sentence; else none.
   */
  situations: string[];
  /** File names the description mentions (`greeting.txt`): what a run of the skill likely writes. */
  files: string[];
}

// "Use when", "Use this skill when", "This skill should be used when", "When Claude needs to", "Trigger on".
const whenClause =
  /\b(?:use (?:this(?: skill)? |it )?(?:when(?:ever)?|if|for)|(?:should|can) be used (?:when|for|if)|(?:when|whenever) (?:claude|the agent|the user|users|someone|you|a user)\b|trigger(?:s|ed)? (?:when|on|for))\s*((?:[^.;!?]|[.?!](?=\S))*)/i;

// Who asks, and how, before what they ask for: "someone asks for", "the user wants to".
const asker =
  /^(?:(?:the |a )?(?:user|users|someone|claude|the agent|you|people)\s+)?(?:asks?|asked|wants?|needs?|requests?|is asked|are asked|mentions?|says?)?\s*(?:for|to|about)?\s+/i;

const fileExtensions =
  'txt|md|mdx|json|jsonl|ya?ml|toml|ini|csv|tsv|xml|html?|css|scss|js|mjs|cjs|jsx|ts|tsx|py|rb|go|rs|java|kt|swift|c|h|cpp|sh|sql|pdf|docx?|xlsx?|pptx?|png|svg|jpe?g|gif|zip|log';
// A name or a relative path (`greeting.txt`, `out/report.json`); not a URL's or an absolute path's tail.
const fileName = new RegExp(`(?<![\\w/.:-])([\\w-]+(?:[/.][\\w-]+)*\\.(?:${fileExtensions}))(?![\\w.-]*[\\w-])`, 'gi');

/** The requests and files a skill's description names; an empty description gives none of either. */
export function readSkillHints(description: string): SkillHints {
  const text = description.replace(/\s+/g, ' ').trim();
  return { situations: situationsOf(text), files: filesOf(text) };
}

function situationsOf(text: string): string[] {
  const clause = whenClause.exec(text)?.[1]?.trim();
  if (clause) {
    const listed = splitList(clause.replace(asker, ''))
      .map(tidy)
      .flatMap(examplesOfLong)
      .filter((item) => item.length >= 3 && item.length <= 80);
    if (listed.length > 0) return [...new Set(listed)];
  }
  // A sentence ends at a stop before a space, not at the dot of `greeting.txt` or `e.g`.
  const first = /^(?:[^.!?]|[.!?](?=\S))+/.exec(text)?.[0];
  const sentence = first ? tidy(first) : '';
  return sentence.length >= 3 && sentence.length <= 120 ? [lowerFirst(sentence)] : [];
}

/**
 * An item too long to name a case, that lists its examples in parentheses ("write internal
 * communications (status reports, leadership updates, …, etc.)"), gives those examples; any
 * other item stays as it is.
 */
function examplesOfLong(item: string): string[] {
  if (item.length <= 80) return [item];
  const inside = /\(([^()]*)\)/.exec(item)?.[1];
  const examples = inside
    ? splitList(inside)
        .map(tidy)
        .filter((example) => example !== '' && !/^etc\.?$/i.test(example))
    : [];
  return examples.length >= 2 ? examples : [item];
}

/** Splits "a, b or c" and "a, b, and c" at the top level (not inside parentheses). */
function splitList(clause: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  const words = clause.split(/(\s+|,|\(|\))/);
  for (const word of words) {
    if (word === '(') depth += 1;
    if (word === ')') depth = Math.max(0, depth - 1);
    const separator = depth === 0 && (word === ',' || /^(?:or|and)$/i.test(word));
    if (separator) {
      items.push(current);
      current = '';
    } else current += word;
  }
  items.push(current);
  return items;
}

function tidy(item: string): string {
  return item
    .replace(/\s+/g, ' ')
    .replace(/^[\s,:;-]+|[\s,:;-]+$/g, '')
    .trim();
}

function lowerFirst(sentence: string): string {
  // "Writes a card" reads "writes a card"; a name or an acronym ("PDF tools") keeps its capitals.
  return /^[A-Z][a-z]/.test(sentence) ? `${sentence[0]?.toLowerCase() ?? ''}${sentence.slice(1)}` : sentence;
}

function filesOf(text: string): string[] {
  const found = [...text.matchAll(fileName)].map((match) => match[1] ?? '');
  return [...new Set(found.filter((name) => name !== '' && name.toLowerCase() !== 'skill.md'))];
}
