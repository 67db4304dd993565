import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './run-cli.js';

/** The number of cases of the generated skill. */
export const generatedCases = 60;

/**
 * A project holding a copy of the example skill (with its graders and agent) and a generated
 * skill `many` of 60 cases, whose agent answers by a formula of the case, the arm and the run:
 * with the skill most answers are right, without it about half, and one case in 17 crashes
 * without the skill on its second run. Everything it does is decided by its input alone.
 */
export async function createShardProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-shards-'));
  await cp(join(repoRoot, 'examples', 'greeting'), join(root, 'greeting'), { recursive: true });
  await cp(join(repoRoot, 'examples', '.skeval'), join(root, '.skeval'), { recursive: true });
  await writeFile(
    join(root, 'many-agent.mjs'),
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8');",
      'const task = Number(/task (\\d+)/.exec(prompt)[1]);',
      "const withSkill = JSON.parse(process.env.SKEVAL_SKILLS ?? '[]').some((skill) => skill.name === 'many');",
      "const run = Number(process.env.SKEVAL_RUN ?? '1');",
      "if (!withSkill && run === 2 && task % 17 === 5) { process.stderr.write('agent fell over\\n'); process.exit(1); }",
      'const score = (task * (withSkill ? 7 : 3) + run * 5) % 10;',
      "const right = score >= (withSkill ? 2 : 5) ? 'right' : 'wrong';",
      "writeFileSync('answer.txt', 'task ' + task + ': ' + right + '\\n');",
      "process.stdout.write('Done with task ' + task + '.');",
    ].join('\n'),
  );
  await mkdir(join(root, 'many', 'evals'), { recursive: true });
  await writeFile(
    join(root, 'many', 'SKILL.md'),
    '---\nname: many\ndescription: answers numbered tasks right\n---\nAnswer the task right.\n',
  );
  const cases = Array.from({ length: generatedCases }, (_, at) => ({
    id: at % 3 === 0 ? at + 1 : `task-${at + 1}`,
    prompt: `Answer task ${at + 1}.`,
    assertions: [
      { type: 'file-exists', path: 'answer.txt' },
      { type: 'regex-match', pattern: 'right', target: { file: 'answer.txt' } },
      { type: 'regex-match', pattern: `task ${at + 1}\\b`, target: 'assistant-text' },
      ...(at % 10 === 0 ? ['The answer explains itself'] : []),
    ],
  }));
  await writeFile(join(root, 'many', 'evals', 'evals.json'), JSON.stringify({ skill_name: 'many', evals: cases }));
  return root;
}

/** The agent flags for a skill of the project. */
export function agentFlagsOf(root: string, skill: 'greeting' | 'many'): string[] {
  const agent =
    skill === 'greeting' ? join(repoRoot, 'examples', 'agents', 'greeting-agent.mjs') : join(root, 'many-agent.mjs');
  return ['--agent', 'command', '--agent-command', `node ${agent} {prompt_file}`];
}

/**
 * Keys whose values say when or how long, never what, and the digests of files that hold them:
 * left out where runs are compared.
 */
const timeKey = /time|duration|^run_id$|^artifacts_sha256$/;

/**
 * An artifact with what differs between two runs of the same results taken out: run ids,
 * timestamps, durations, the folders written to (and the `output_dir` and `reporters` settings
 * that name them), and temporary paths in evidence.
 */
export function comparable(value: unknown, roots: readonly string[]): unknown {
  if (typeof value === 'string') return comparableText(value, roots);
  if (Array.isArray(value)) return value.map((entry) => comparable(entry, roots));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !timeKey.test(key) && key !== 'output_dir' && key !== 'reporters')
      .map(([key, entry]) => [key, comparable(entry, roots)]),
  );
}

/** Text with run folders, temporary folders and times replaced by placeholders. */
export function comparableText(text: string, roots: readonly string[]): string {
  let shown = text;
  for (const root of roots) shown = shown.split(root).join('<run>');
  return shown
    .replace(/\/[^\s"'<>]*skeval-(?:case|run)-[A-Za-z0-9]+/g, '<tmp>')
    .replace(/[+−-]?\d+(?:\.\d+)? (?:s|ms)\b/g, '<time>')
    .replace(/ (?:time|timestamp)="[^"]*"/g, '');
}
