import { basename, dirname } from 'node:path';
import { isRecord, listOf } from './detect-format.js';
import { mapAssertion } from './map-assertion.js';
import type { ImportedCase, ImportResult, ReadReferenced } from './types.js';

/** Vars a skill's promptfoo test keeps its task in, when the prompt template says nothing. */
const promptVars = ['prompt', 'user_prompt', 'task', 'query', 'input', 'question', 'message'];

/**
 * A promptfoo config as an evals.json: each test (inline, or from the files `tests:
 * file://…` names) is a case; its prompt is the first prompt template with the test's vars
 * filled in (`{{ var }}`); `defaultTest`'s vars and asserts apply to every test. A test kept in
 * `tests/<skill>/…` is for that skill. Providers, models and options are promptfoo's own and
 * not imported.
 */
export function importPromptfoo(config: Record<string, unknown>, readReferenced: ReadReferenced): ImportResult {
  const mapped: string[] = [];
  const lost: string[] = [];
  const template = promptTemplate(config.prompts, lost);
  const defaults = isRecord(config.defaultTest) ? config.defaultTest : {};
  const tests = collectTests(config.tests, readReferenced, lost);
  const fileVars = Object.entries(isRecord(defaults.vars) ? defaults.vars : {})
    .filter(([, value]) => typeof value === 'string' && value.startsWith('file://'))
    .map(([name]) => `\`${name}\``);
  if (fileVars.length)
    lost.push(
      `defaultTest.vars ${fileVars.join(', ')} read files into promptfoo's prompts; not imported: Skeval installs the skill where the agent looks for it`,
    );
  const evals: ImportedCase[] = [];
  for (const [index, { test, where, file }] of tests.entries()) {
    const vars = { ...(isRecord(defaults.vars) ? defaults.vars : {}), ...(isRecord(test.vars) ? test.vars : {}) };
    const prompt = renderPrompt(template, vars, where, lost);
    if (!prompt) {
      lost.push(
        `${where}: no prompt (no template and none of the vars ${promptVars.join(', ')}); the test is not imported`,
      );
      continue;
    }
    const asserts = [
      ...listOf(defaults.assert).map((entry, at) => ({ entry, at: `defaultTest.assert[${at}]` })),
      ...listOf(test.assert).map((entry, at) => ({ entry, at: `${where}.assert[${at}]` })),
    ];
    const assertions: ImportedCase['assertions'] = [];
    for (const [position, { entry, at }] of asserts.entries()) {
      const result = mapAssertion(entry, `a${position + 1}`, at);
      if ('lost' in result) lost.push(result.lost);
      else {
        assertions.push(result.assertion);
        if (!at.startsWith('defaultTest') || index === 0) mapped.push(result.note);
      }
    }
    const metadataSkill =
      isRecord(test.metadata) && typeof test.metadata.skill === 'string' ? test.metadata.skill : undefined;
    const skill =
      metadataSkill ?? (file && basename(dirname(dirname(file))) === 'tests' ? basename(dirname(file)) : undefined);
    evals.push({
      id: index + 1,
      ...(typeof test.description === 'string' ? { name: test.description } : {}),
      prompt,
      ...(typeof vars.expected_output === 'string' ? { expected_output: vars.expected_output } : {}),
      ...(skill ? { skill } : {}),
      assertions,
    });
  }
  for (const key of ['providers', 'evaluateOptions', 'outputPath', 'scenarios'])
    if (config[key] !== undefined)
      lost.push(
        `\`${key}\` is promptfoo's own (which models to call, how): Skeval runs the agent \`skeval run\` is given`,
      );
  return { format: 'promptfoo', evals: { evals }, mapped, lost };
}

function promptTemplate(prompts: unknown, lost: string[]): string | undefined {
  const [first, ...rest] = listOf(prompts);
  if (rest.length > 0) lost.push(`prompts: ${rest.length + 1} prompt templates; the first is used`);
  const text =
    typeof first === 'string' ? first : isRecord(first) && typeof first.raw === 'string' ? first.raw : undefined;
  if (text?.startsWith('file://')) {
    lost.push(`prompts[0]: ${text} is a prompt file; not read: the test's vars give the prompt`);
    return undefined;
  }
  return text;
}

function renderPrompt(
  template: string | undefined,
  vars: Record<string, unknown>,
  where: string,
  lost: string[],
): string {
  const fromVars = () => {
    const key = promptVars.find((name) => typeof vars[name] === 'string');
    return key === undefined ? '' : String(vars[key]);
  };
  if (template === undefined) return fromVars().trim();
  const unread = new Set<string>();
  const text = template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_match, name: string) => {
    const value = vars[name];
    if (typeof value === 'string' && value.startsWith('file://')) unread.add(name);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  });
  if (unread.size)
    lost.push(
      `${where}: vars ${[...unread].map((name) => `\`${name}\``).join(', ')} name files; not read into the prompt`,
    );
  return text.trim() || fromVars().trim();
}

interface TestEntry {
  test: Record<string, unknown>;
  where: string;
  file?: string;
}

function collectTests(tests: unknown, readReferenced: ReadReferenced, lost: string[]): TestEntry[] {
  const entries: TestEntry[] = [];
  for (const [index, entry] of listOf(tests).entries()) {
    if (typeof entry === 'string' && entry.startsWith('file://')) {
      const pattern = entry.slice('file://'.length);
      const found = readReferenced(pattern);
      if (found.length === 0) lost.push(`tests[${index}]: ${entry} matches no file`);
      for (const match of found) {
        if ('problem' in match) {
          lost.push(`tests[${index}]: ${match.path} ${match.problem}`);
          continue;
        }
        const { path, value } = match;
        for (const [at, test] of listOf(value).entries())
          if (isRecord(test))
            entries.push({ test, where: `${path}${Array.isArray(value) ? `[${at}]` : ''}`, file: path });
      }
    } else if (isRecord(entry)) entries.push({ test: entry, where: `tests[${index}]` });
    else lost.push(`tests[${index}]: ${JSON.stringify(entry)} is not a test; not imported`);
  }
  return entries;
}
