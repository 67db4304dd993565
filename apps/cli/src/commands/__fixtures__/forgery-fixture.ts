import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliResult, runBinary } from './run-cli.js';

/** The cases of the quiz skill: the agent answers the even ones right and the odd ones wrong. */
export const quizCases = 6;

/**
 * A project (a repository: it has `.git`) holding a skill `quiz` of six cases whose agent writes
 * `answer.txt`, right for even tasks and wrong for odd ones, and leaves the case's input
 * `notes.md` alone. Every case checks its answer and that `notes.md` is still there, so a
 * verdict can be forged from a fail to a pass.
 */
export async function createQuizProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-forgery-'));
  await mkdir(join(root, '.git'));
  await writeFile(
    join(root, 'quiz-agent.mjs'),
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const task = Number(/task (\\d+)/.exec(readFileSync(process.argv[2], 'utf8'))[1]);",
      "writeFileSync('answer.txt', task % 2 === 0 ? 'right\\n' : 'wrong\\n');",
      "process.stdout.write('Answered task ' + task + '.');",
    ].join('\n'),
  );
  await mkdir(join(root, 'quiz', 'evals'), { recursive: true });
  await writeFile(join(root, 'quiz', 'SKILL.md'), '---\nname: quiz\ndescription: answers quiz tasks\n---\nAnswer.\n');
  const cases = Array.from({ length: quizCases }, (_, at) => ({
    id: `q${at + 1}`,
    prompt: `Answer task ${at + 1}.`,
    files: [{ path: 'notes.md', content: 'keep me\n' }],
    assertions: [
      { type: 'regex-match', pattern: '^right$', flags: 'm', target: { file: 'answer.txt' } },
      { id: 'notes-kept', kind: 'workspace', method: 'file-exists', path: 'notes.md' },
    ],
  }));
  await writeFile(join(root, 'quiz', 'evals', 'evals.json'), JSON.stringify({ skill_name: 'quiz', evals: cases }));
  return root;
}

export const quizAgent = (root: string) => [
  '--agent',
  'command',
  '--agent-command',
  `node ${join(root, 'quiz-agent.mjs')} {prompt_file}`,
];

/** `skeval run quiz` into `outputDir`, with `flags`; the run folder it wrote. */
export async function runQuiz(
  root: string,
  outputDir: string,
  flags: string[] = [],
): Promise<{ result: CliResult; runDir: string }> {
  const result = await runBinary(root, ['run', 'quiz', ...quizAgent(root), '--output-dir', outputDir, ...flags]);
  const entries = (await readdir(join(outputDir, 'quiz'))).filter((entry) => !entry.startsWith('latest'));
  return { result, runDir: join(outputDir, 'quiz', entries[0] ?? '') };
}

/** `skeval run quiz` whole and in two shards, the three at once: each run and its folder. */
export async function runQuizWholeAndShards(root: string) {
  const [whole, ...shards] = await Promise.all([
    runQuiz(root, join(root, 'whole')),
    runQuiz(root, join(root, 'shards', '1'), ['--shard', '1/2']),
    runQuiz(root, join(root, 'shards', '2'), ['--shard', '2/2']),
  ]);
  return { whole, shards };
}

/**
 * A copy of the run folder `runDir` at `base`/run whose folder of case `caseId` is a link to a
 * copy of it at `base`/outside with every verdict made a pass: a forgery pointing out of the run.
 * Returns the forged run folder.
 */
export async function forgeLinkedCase(runDir: string, base: string, caseId: string): Promise<string> {
  const dir = await copyOf(runDir, join(base, 'run'));
  const folder = join(dir, `eval-${caseId}`);
  const outside = await copyOf(folder, join(base, 'outside'));
  await writeFile(join(outside, 'grading.json'), await allPass(join(outside, 'grading.json')));
  await rm(folder, { recursive: true });
  await symlink(outside, folder);
  return dir;
}

/** A case run's grading.json with every verdict made a pass: what a forger would put in its place. */
export async function allPass(gradingFile: string): Promise<string> {
  const grading = JSON.parse(await readFile(gradingFile, 'utf8'));
  for (const row of grading.assertion_results) Object.assign(row, { passed: true, status: 'pass', evidence: 'ok' });
  for (const row of grading.expectations) Object.assign(row, { passed: true, evidence: 'ok' });
  const total = grading.assertion_results.length;
  grading.summary = { passed: total, failed: 0, errored: 0, skipped: 0, total, pass_rate: 1 };
  return `${JSON.stringify(grading, null, 2)}\n`;
}

/** A copy of a folder elsewhere, to tamper with. */
export async function copyOf(dir: string, into: string): Promise<string> {
  await cp(dir, into, { recursive: true, verbatimSymlinks: true });
  return into;
}
