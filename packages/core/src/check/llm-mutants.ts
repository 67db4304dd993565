import type { LoadedCase } from '@skeval/evals';
import { explainUnsafeRelativePath, llmMutantAnswersJsonSchema, llmMutantAnswersSchema } from '@skeval/schema/internal';
import type { JudgeSetup } from '../grading/judge-setup.js';
import { textOf } from './mutants.js';
import type { Reference } from './reference.js';

/** A plausible wrong answer the judge's model wrote: the reference with one thing broken. */
export interface LlmMutant {
  /** `llm-<n>`, from 1, in the order the model gave them. */
  id: string;
  /** What the model says it broke. */
  broke: string;
  response: string;
  /** The end-state files: the reference's, with those the model rewrote replaced. */
  files: Map<string, Buffer>;
}

export interface LlmMutantsOptions {
  evalCase: LoadedCase;
  reference: Reference;
  count: number;
  judge: JudgeSetup;
  skillDir: string;
}

const excerptChars = 4000;

/**
 * Asks the judge's model, in one call, for `count` near-miss answers to a case: told what the
 * assertions check and shown the reference, each answer breaks one thing. A file path that would
 * leave the workspace is dropped; an answer that does not parse is dropped. The answers are graded
 * beside the deterministic mutants and reported apart from them.
 */
export async function writeLlmMutants(options: LlmMutantsOptions): Promise<LlmMutant[]> {
  const { evalCase, reference, judge } = options;
  if (!judge.model) return [];
  const files = [...reference.files].flatMap(([path, content]) => {
    const text = textOf(content);
    return text === undefined ? [] : [`--- ${path}\n${text.slice(0, excerptChars)}`];
  });
  const result = await judge.model.generate({
    system:
      'You write plausible wrong answers for testing an evaluation. Each answer must look like a real attempt at the task but be wrong in exactly one way that a careful reviewer would catch. Reply with JSON only.',
    messages: [
      {
        role: 'user',
        content: [
          `Task given to the agent:\n${evalCase.prompt}`,
          `What the evaluation checks:\n${evalCase.assertions.map((assertion, at) => `${at + 1}. ${assertion.text}`).join('\n')}`,
          `A correct answer (the reference):\n${reference.response}`,
          files.length
            ? `Files the correct answer leaves:\n${files.join('\n')}`
            : 'The correct answer leaves no files.',
          `Write ${options.count} wrong answers. For each: \`broke\` (which one thing is wrong), \`response\` (the final reply), and \`files\` (only the files that differ from the correct answer's, with their whole new content).`,
        ].join('\n\n'),
      },
    ],
    responseSchema: {
      name: 'wrong_answers',
      description: 'Plausible wrong answers, each breaking one thing.',
      schema: llmMutantAnswersJsonSchema(),
    },
    maxTokens: 1024 * Math.max(1, options.count),
    ...(judge.timeoutMs === undefined ? {} : { timeoutMs: judge.timeoutMs }),
  });
  const parsed = llmMutantAnswersSchema.safeParse(result.json);
  if (!parsed.success) return [];
  return parsed.data.answers.slice(0, options.count).map((answer, at) => {
    const changed = new Map(reference.files);
    for (const file of answer.files) {
      if (explainUnsafeRelativePath(file.path) === undefined) changed.set(file.path, Buffer.from(file.content));
    }
    return { id: `llm-${at + 1}`, broke: answer.broke, response: answer.response, files: changed };
  });
}
