import { casePromptKeys, isRecord, listOf } from './detect-format.js';
import type { ImportedCase, ImportResult } from './types.js';

/** Lists of prose criteria, each line a judged claim. */
const claimKeys = ['checks', 'expect', 'expected', 'must', 'criteria', 'expectations', 'assertions', 'should'];
/** Lists of prose the response must not do, each line a judged claim "Does not: …". */
const negativeClaimKeys = ['must_not', 'forbidden', 'should_not', 'must_not_do'];
/** Lists of prose the response must keep, each line a judged claim "Preserves: …". */
const preserveKeys = ['must_preserve'];
const triggerKeys = ['activation', 'should_trigger', 'expected_trigger', 'should_activate'];
const read = new Set([
  'id',
  'name',
  'title',
  'skill',
  'exact_output',
  'expected_output',
  'must_contain',
  'must_not_contain',
  ...casePromptKeys,
  ...claimKeys,
  ...negativeClaimKeys,
  ...preserveKeys,
  ...triggerKeys,
]);
const keyHints: Record<string, string> = {
  baseline: 'a reference answer; put it under evals/reference/<case>/response.md for `skeval check`',
  outputs: 'reference answers; put one under evals/reference/<case>/response.md for `skeval check`',
  setup: 'prose about an earlier turn; write the conversation as turns',
  fixture: 'prose about the situation; say it in the prompt, or give the files under `files`',
  tags: "labels; Skeval's cases have none (filter with `--case <id>`)",
};

/**
 * A `cases.yaml` list (under `cases`, or the file itself a list) as an evals.json: each case's
 * prompt is its `prompt` (or `input`, `user`, `query`, `task` …; a `task` with an `input` text is
 * both, in that order), its prose criteria (`checks`, `expect`, `must`, `criteria` …) judged
 * claims, what it must not do (`must_not`, `forbidden`) judged claims "Does not: …",
 * `must_contain`/`must_not_contain` substring checks, `exact_output` an exact answer, a case's
 * `skill` the skill it is for. The file's `skill` names the skill of all its cases.
 */
export function importCasesList(file: unknown): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const list = Array.isArray(file) ? file : isRecord(file) && Array.isArray(file.cases) ? file.cases : [];
  const label = Array.isArray(file) ? '' : 'cases';
  const unread = new Map<string, number>();
  const evals: ImportedCase[] = [];
  for (const [index, entry] of list.entries()) {
    const where = `${label}[${index}]`;
    if (!isRecord(entry)) {
      lost.push(`${where}: not a case; not imported`);
      continue;
    }
    const prompt = promptOf(entry, where, lost);
    if (!prompt) {
      lost.push(
        `${where}: no prompt (none of ${casePromptKeys.map((key) => `\`${key}\``).join(', ')}); the case is not imported`,
      );
      continue;
    }
    for (const key of Object.keys(entry)) if (!read.has(key)) unread.set(key, (unread.get(key) ?? 0) + 1);
    const assertions = caseAssertions(entry, where, mapped, lost);
    const expected = [entry.exact_output, entry.expected_output].find((value) => typeof value === 'string');
    const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? entry.id : entry.name;
    evals.push({
      id: typeof id === 'string' || typeof id === 'number' ? id : index + 1,
      ...(typeof entry.title === 'string' ? { name: entry.title } : {}),
      prompt,
      ...(typeof expected === 'string' ? { expected_output: expected.trim() } : {}),
      ...(typeof entry.skill === 'string' ? { skill: entry.skill } : {}),
      assertions,
    });
  }
  for (const [key, count] of unread)
    lost.push(
      `\`${key}\` (in ${count} case${count === 1 ? '' : 's'}): not a Skeval case field; not imported${keyHints[key] ? `: ${keyHints[key]}` : ''}`,
    );
  const skill =
    isRecord(file) && typeof file.skill === 'string' && file.skill.trim() !== '' ? file.skill.trim() : undefined;
  if (skill) mapped.push(`\`skill\` ${JSON.stringify(skill)} → skill_name`);
  return { format: 'cases', evals: { ...(skill ? { skill_name: skill } : {}), evals }, mapped, lost };
}

function promptOf(entry: Record<string, unknown>, where: string, lost: string[]): string | undefined {
  const text = (key: string) => (typeof entry[key] === 'string' ? String(entry[key]).trim() : '');
  if (text('task') && text('input')) return `${text('task')}\n\n${text('input')}`;
  const key = casePromptKeys.find((name) => text(name) !== '');
  if (key === undefined) {
    const structured = casePromptKeys.find((name) => entry[name] !== undefined);
    if (structured)
      lost.push(
        `${where}.${structured}: not a text (a list or a mapping); not read as the prompt: write the prompt as text`,
      );
    return undefined;
  }
  const structured = casePromptKeys.find((name) => entry[name] !== undefined && name !== key && !text(name));
  if (structured) lost.push(`${where}.${structured}: not a text; not imported (the prompt is \`${key}\`)`);
  return text(key);
}

function caseAssertions(
  entry: Record<string, unknown>,
  where: string,
  mapped: string[],
  lost: string[],
): ImportedCase['assertions'] {
  const assertions: ImportedCase['assertions'] = [];
  const claims = (key: string, prefix: string) => {
    for (const [at, line] of listOf(entry[key]).entries()) {
      const text =
        typeof line === 'string'
          ? line
          : isRecord(line)
            ? [line.description, line.text, line.check].find((value) => typeof value === 'string')
            : undefined;
      if (typeof text === 'string' && text.trim() !== '') {
        assertions.push(`${prefix}${text.trim()}`);
        mapped.push(`${where}.${key}[${at}] → a judged claim${prefix ? ` "${prefix.trim()} …"` : ''}`);
      } else lost.push(`${where}.${key}[${at}]: not a line of text; not imported`);
    }
  };
  for (const key of claimKeys) claims(key, '');
  for (const key of negativeClaimKeys) claims(key, 'Does not: ');
  for (const key of preserveKeys) claims(key, 'Preserves: ');
  let count = 0;
  const substrings = (key: string, method: string) => {
    const value = listOf(entry[key]).filter((item): item is string => typeof item === 'string' && item !== '');
    if (value.length === 0) return;
    assertions.push({ id: `c${++count}`, kind: 'output', method, value });
    mapped.push(`${where}.${key} → output/${method}`);
  };
  substrings('must_contain', 'contains');
  substrings('must_not_contain', 'not-contains');
  if (typeof entry.exact_output === 'string' && entry.exact_output.trim() !== '') {
    assertions.push({ id: `c${++count}`, kind: 'output', method: 'exact', value: entry.exact_output.trim() });
    mapped.push(`${where}.exact_output → output/exact (and expected_output)`);
  } else if (entry.expected_output !== undefined && typeof entry.expected_output !== 'string')
    lost.push(`${where}.expected_output: not a text; not imported: write the expected answer as text`);
  for (const key of triggerKeys) {
    const value = entry[key];
    if (value === undefined) continue;
    if (value === true || value === 'should_activate' || value === 'should_trigger') {
      assertions.push({ id: `c${++count}`, kind: 'behavior', method: 'skill-read' });
      mapped.push(`${where}.${key}: ${JSON.stringify(value)} → behavior/skill-read`);
    } else
      lost.push(
        `${where}.${key}: ${JSON.stringify(value)}: Skeval has no "skill not read" assertion; not imported: write the prompt as a trigger query (\`"should_trigger": false\`) for \`skeval triggers\``,
      );
  }
  return assertions;
}
