import { maxDescriptionChars } from '@skeval/evals/internal';
import type { LanguageModel } from '@skeval/judge';
import type { RunEvalResult } from '@skeval/schema/internal';

/** What the model is shown of an earlier round: its description and train score only. */
export interface BlindedRound {
  iteration: number;
  description: string;
  trainPassed: number;
  trainTotal: number;
  trainResults: RunEvalResult[];
}

export interface ProposeDescriptionOptions {
  model: LanguageModel;
  skillName: string;
  /** SKILL.md without its front matter: what the skill does. */
  skillBody: string;
  current: string;
  /** This round's train results: the only results the model sees. */
  train: RunEvalResult[];
  history: BlindedRound[];
  signal?: AbortSignal;
}

/** A proposal, or why there is none. */
export type Proposal =
  | { description: string; usage: { inputTokens: number; outputTokens: number } }
  | { rejected: string; usage: { inputTokens: number; outputTokens: number } };

const system =
  "You improve the description of an Agent Skill. An agent sees only each skill's name and description when it decides which skill to load for a user's request; write a description that makes the agent load this skill for the requests it serves and leave it for the others.";

/**
 * Asks the model for a better description from the train results only (the test results never
 * reach it). A reply over the 1,024-character limit is sent back once to be shortened; still too
 * long, the proposal is rejected.
 */
export async function proposeDescription(options: ProposeDescriptionOptions): Promise<Proposal> {
  const prompt = buildPrompt(options);
  const usage = { inputTokens: 0, outputTokens: 0 };
  const ask = async (content: string) => {
    const answer = await options.model.generate({
      system,
      messages: [{ role: 'user', content }],
      maxTokens: 1024,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    usage.inputTokens += answer.usage.inputTokens;
    usage.outputTokens += answer.usage.outputTokens;
    return readDescription(answer.text);
  };
  const first = await ask(prompt);
  if (first === '') return { rejected: 'the model proposed no description', usage };
  if (first.length <= maxDescriptionChars) return { description: first, usage };
  const shorter = await ask(
    `${prompt}\n\nYour last proposal was ${first.length} characters, over the hard limit of ${maxDescriptionChars}:\n<too_long>${first}</too_long>\nRewrite it in under ${maxDescriptionChars} characters, keeping what decides when the skill is used. Answer with the description alone inside <new_description> tags.`,
  );
  if (shorter !== '' && shorter.length <= maxDescriptionChars) return { description: shorter, usage };
  return {
    rejected: `the proposal was ${Math.max(first.length, shorter.length)} characters, over the ${maxDescriptionChars}-character limit, after one request to shorten it`,
    usage,
  };
}

function buildPrompt(options: ProposeDescriptionOptions): string {
  const line = (result: RunEvalResult) =>
    `- ${JSON.stringify(result.query)} (loaded in ${result.triggers} of ${result.runs} run${result.runs === 1 ? '' : 's'})`;
  const missed = options.train.filter((result) => result.should_trigger && !result.pass);
  const stolen = options.train.filter((result) => !result.should_trigger && !result.pass);
  const passed = options.train.filter((result) => result.pass).length;
  const sections = [
    `Skill: ${options.skillName}`,
    `Current description (${options.current.length} characters):\n<current_description>${options.current}</current_description>`,
    `Score on the training queries: ${passed} of ${options.train.length} passed.`,
    missed.length ? `Should have loaded the skill but did not:\n${missed.map(line).join('\n')}` : '',
    stolen.length ? `Loaded the skill but should not have:\n${stolen.map(line).join('\n')}` : '',
    options.history.length
      ? `Earlier attempts (try something different from each):\n${options.history
          .map(
            (round) =>
              `<attempt iteration="${round.iteration}" train="${round.trainPassed}/${round.trainTotal}">${round.description}</attempt>`,
          )
          .join('\n')}`
      : '',
    `What the skill does (its SKILL.md):\n<skill_body>\n${options.skillBody.slice(0, 20_000)}\n</skill_body>`,
    `Write a new description. Generalize from the failures to the kinds of request the skill serves and the ones it does not, rather than listing these queries. Say when to use it, in the imperative ("Use this skill when…"). Keep it under ${maxDescriptionChars} characters (about 100 to 200 words). Answer with the description alone inside <new_description> tags.`,
  ];
  return sections.filter((section) => section !== '').join('\n\n');
}

/** The text inside `<new_description>`, else the whole answer; surrounding quotes dropped. */
function readDescription(text: string): string {
  const tagged = /<new_description>([\s\S]*?)<\/new_description>/.exec(text)?.[1];
  return (tagged ?? text)
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim();
}
