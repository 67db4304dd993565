import { isRecord, listOf } from './detect-format.js';
import { mapAssertion } from './map-assertion.js';
import type { ImportedCase, ImportResult } from './types.js';

/**
 * An agentv eval file as an evals.json: each of `tests` (or the older `evalcases`) is a case;
 * its `input` (a string, or messages whose user text parts are the prompt and whose `file` parts
 * are its files), `expected_output`, `criteria` (or `expected_outcome`) and `rubrics` as judged
 * claims, and its `assertions` mapped like promptfoo's. A `skill-trigger` assertion names the
 * case's skill. A code grader (`script`, `code-grader`, `code_judge`) is kept when a Skeval
 * grader of its name exists (`.skeval/graders/` or `.agentv/graders/`, the contract
 * `skeval assert` shares), else listed as not imported.
 */
export function importAgentv(file: Record<string, unknown>, graderExists: (name: string) => boolean): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const key = Array.isArray(file.tests) ? 'tests' : 'evalcases';
  const listed = file[key];
  const cases: unknown[] = Array.isArray(listed) ? listed : [];
  const evals: ImportedCase[] = [];
  for (const [index, entry] of cases.entries()) {
    const where = `${key}[${index}]`;
    if (!isRecord(entry)) {
      lost.push(`${where}: not a case; not imported`);
      continue;
    }
    const input = readInput(entry.input ?? entry.input_messages, where, lost);
    if (!input.prompt) {
      lost.push(`${where}: no user message in \`input\`; the case is not imported`);
      continue;
    }
    const assertions: ImportedCase['assertions'] = [];
    let skill: string | undefined;
    for (const criterion of [entry.criteria, entry.expected_outcome]) {
      if (typeof criterion === 'string' && criterion.trim() !== '') {
        assertions.push(criterion.trim());
        mapped.push(`${where}: \`criteria\` → a judged claim`);
      }
    }
    for (const [at, rubric] of listOf(entry.rubrics).entries()) {
      const text =
        typeof rubric === 'string'
          ? rubric
          : isRecord(rubric)
            ? (rubric.outcome ?? rubric.description ?? rubric.criteria)
            : undefined;
      if (typeof text === 'string') {
        assertions.push(text);
        mapped.push(`${where}.rubrics[${at}] → a judged claim`);
      } else lost.push(`${where}.rubrics[${at}]: no text; not imported`);
    }
    const graders = [
      ...listOf(entry.assertions),
      ...listOf(isRecord(entry.execution) ? entry.execution.evaluators : undefined),
    ];
    for (const [at, grader] of graders.entries()) {
      const place = `${where}.assertions[${at}]`;
      if (isRecord(grader) && grader.type === 'skill-trigger' && typeof grader.skill === 'string') {
        if (grader.should_trigger === false) {
          lost.push(
            `${place}: \`skill-trigger\` with \`should_trigger: false\` (the skill must not load) has no case assertion in Skeval; not imported: write the prompt as a trigger query (\`"expected": "should_not_trigger"\`) for \`skeval triggers\``,
          );
          continue;
        }
        skill = grader.skill;
        assertions.push({
          id: `a${assertions.length + 1}`,
          kind: 'behavior',
          method: 'skill-read',
          skill: grader.skill,
        });
        mapped.push(`${place}: \`skill-trigger\` → behavior/skill-read of ${JSON.stringify(grader.skill)}`);
        continue;
      }
      if (isRecord(grader) && ['script', 'code-grader', 'code_judge', 'code-judge'].includes(String(grader.type))) {
        const name = typeof grader.name === 'string' ? grader.name : undefined;
        if (name && graderExists(name)) {
          assertions.push({ type: name });
          mapped.push(`${place}: \`${String(grader.type)}\` \`${name}\` → the custom grader \`${name}\``);
        } else
          lost.push(
            `${place}: \`${String(grader.type)}\`${name ? ` \`${name}\`` : ''} runs ${JSON.stringify(grader.command ?? grader.script ?? '')} in agentv; not imported: put it in .agentv/graders/${name ?? '<name>'}.ts (defineScriptGrader reads the same stdin payload) and it is read by name`,
          );
        continue;
      }
      const result = mapAssertion(grader, `a${assertions.length + 1}`, place);
      if ('lost' in result) lost.push(result.lost);
      else {
        assertions.push(result.assertion);
        mapped.push(result.note);
      }
    }
    const expected = typeof entry.expected_output === 'string' ? entry.expected_output : undefined;
    evals.push({
      id: typeof entry.id === 'string' || typeof entry.id === 'number' ? entry.id : index + 1,
      prompt: input.prompt,
      ...(expected ? { expected_output: expected } : {}),
      ...(input.files.length ? { files: input.files } : {}),
      ...(skill ? { skill } : {}),
      assertions,
    });
  }
  for (const keyName of ['target', 'execution', 'workspace'])
    if (file[keyName] !== undefined)
      lost.push(`\`${keyName}\` is agentv's own (which agent, where): Skeval runs the agent \`skeval run\` is given`);
  return { format: 'agentv', evals: { evals }, mapped, lost };
}

/** The prompt (user text, joined) and files of agentv's `input`; system messages are not imported. */
function readInput(input: unknown, where: string, lost: string[]): { prompt: string; files: string[] } {
  if (typeof input === 'string') return { prompt: input.trim(), files: [] };
  const texts: string[] = [];
  const files: string[] = [];
  for (const [at, message] of listOf(input).entries()) {
    if (!isRecord(message)) continue;
    if (message.role !== undefined && message.role !== 'user') {
      lost.push(
        `${where}.input[${at}]: a \`${String(message.role)}\` message; not imported (Skeval gives the agent the user's prompt)`,
      );
      continue;
    }
    for (const part of typeof message.content === 'string' ? [message.content] : listOf(message.content)) {
      if (typeof part === 'string') texts.push(part);
      else if (isRecord(part) && part.type === 'file' && typeof part.value === 'string') files.push(part.value);
      else if (isRecord(part) && typeof part.value === 'string') texts.push(part.value);
      else if (isRecord(part) && typeof part.text === 'string') texts.push(part.text);
    }
  }
  return { prompt: texts.join('\n\n').trim(), files };
}
