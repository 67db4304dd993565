import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gradingSchema, traceSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './__fixtures__/run-cli.js';

// `skeval run` on a skill with three-turn cases, the agent a script through the command runner:
// it keeps the prompts it was given in SKEVAL_SESSION_DIR and answers with what it remembers, so
// each turn's answer shows whether the session folder was kept. Then `skeval grade` and
// `skeval report` read the run back.

let root: string;

function run(args: string[]) {
  return runCli(root, args);
}

const agentScript = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [turnArgument, promptFile] = process.argv.slice(2);
const prompt = readFileSync(promptFile, 'utf8').trim();
const history = join(process.env.SKEVAL_SESSION_DIR, 'history.txt');
const earlier = existsSync(history) ? readFileSync(history, 'utf8').split('\\n').filter(Boolean) : [];
appendFileSync(history, prompt + '\\n');
if (prompt.includes('CRASH')) {
  process.stderr.write('the agent fell over\\n');
  process.exit(4);
}
if (prompt.startsWith('Write')) writeFileSync('greeting.txt', 'Hello, Ada!\\n');
if (prompt.includes('shout')) writeFileSync('greeting.txt', readFileSync('greeting.txt', 'utf8').toUpperCase());
const said = 'turn ' + turnArgument + ' of ' + process.env.SKEVAL_TURNS + ' (SKEVAL_TURN ' + process.env.SKEVAL_TURN + ')';
console.log(said + '; earlier prompts: ' + (earlier.join(' | ') || 'none'));
`;

const contains = (value: string) => ({ kind: 'output', method: 'contains', value });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-multi-turn-run-'));
  await writeFile(join(root, 'agent.mjs'), agentScript);
  await mkdir(join(root, 'chat', 'evals'), { recursive: true });
  await writeFile(join(root, 'chat', 'SKILL.md'), '---\nname: chat\ndescription: Greets people.\n---\n\nGreet.\n');
  const evals = {
    skill_name: 'chat',
    evals: [
      {
        id: 'refine',
        turns: [
          {
            prompt: 'Write greeting.txt for Ada.',
            assertions: [contains('earlier prompts: none'), { type: 'file-exists', path: 'greeting.txt' }],
          },
          {
            prompt: 'Now make it shout.',
            assertions: [contains('turn 2 of 3 (SKEVAL_TURN 2)'), contains('earlier prompts: Write greeting.txt')],
          },
          {
            prompt: 'Say what you changed.',
            // The first holds; the second is turn 1's answer, not turn 3's: it fails.
            assertions: [
              contains('Write greeting.txt for Ada. | Now make it shout.'),
              contains('earlier prompts: none'),
            ],
          },
        ],
        assertions: [{ kind: 'workspace', method: 'file-contains', path: 'greeting.txt', value: 'HELLO, ADA!' }],
      },
      {
        id: 'crash',
        turns: [
          { prompt: 'Fine.', assertions: [contains('turn 1 of 3')] },
          { prompt: 'CRASH now.', assertions: [contains('turn 2')] },
          { prompt: 'Never reached.', assertions: [contains('turn 3')] },
        ],
      },
    ],
  };
  await writeFile(join(root, 'chat', 'evals', 'evals.json'), JSON.stringify(evals, null, 2));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const agent = ['--agent', 'command', '--agent-command', 'node agent.mjs {turn} {prompt_file}'];

async function caseFiles(runDir: string, caseId: string) {
  const dir = join(runDir, `eval-${caseId}`);
  const read = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8'));
  return {
    grading: gradingSchema.parse(await read('grading.json')),
    trace: traceSchema.parse(await read('trace.json')),
  };
}

describe('skeval run with multi-turn cases and the command runner', () => {
  let runDir: string;
  let result: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    result = await run(['run', 'chat', ...agent, '--output-dir', 'out']);
    const [runId] = (await readdir(join(root, 'out', 'chat'))).filter(
      (name) => name !== 'latest' && name !== 'latest.json',
    );
    runDir = join(root, 'out', 'chat', runId ?? '');
  }, 120_000);

  it('runs each turn with {turn}, SKEVAL_TURN and SKEVAL_TURNS, the session folder kept between turns', async () => {
    const { grading, trace } = await caseFiles(runDir, 'refine');
    expect(trace.conversation?.map((entry) => [entry.turn, entry.final_text])).toEqual([
      [1, 'turn 1 of 3 (SKEVAL_TURN 1); earlier prompts: none'],
      [2, 'turn 2 of 3 (SKEVAL_TURN 2); earlier prompts: Write greeting.txt for Ada.'],
      [3, 'turn 3 of 3 (SKEVAL_TURN 3); earlier prompts: Write greeting.txt for Ada. | Now make it shout.'],
    ]);
    expect(grading.assertion_results.map((row) => [row.turn ?? 'end', row.status])).toEqual([
      [1, 'pass'],
      [1, 'pass'],
      [2, 'pass'],
      [2, 'pass'],
      [3, 'pass'],
      [3, 'fail'],
      ['end', 'pass'],
    ]);
    expect(grading.expectations.map((row) => row.turn ?? 'end')).toEqual([1, 1, 2, 2, 3, 3, 'end']);
  });

  it('stops a case at the turn whose agent crashed; the later turn is an error, never a pass', async () => {
    const { grading, trace } = await caseFiles(runDir, 'crash');
    expect(trace.conversation?.map((entry) => [entry.turn, entry.status])).toEqual([
      [1, 'ok'],
      [2, 'error'],
    ]);
    expect(grading.agent_error?.message).toMatch(/^turn 2 of 3: node exited with code 4; stderr: the agent fell over/);
    expect(grading.assertion_results.map((row) => [row.turn, row.status, row.evidence])).toEqual([
      [1, 'pass', expect.any(String)],
      [2, 'error', expect.stringMatching(/^not graded: the agent failed in this turn \(/)],
      [3, 'error', 'not graded: turn 3 did not run (the case stopped at turn 2, which failed)'],
    ]);
  });

  it('prints progress, the table and the failure list with the turn of each failed assertion', () => {
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^\[\d\/2\] chat refine: 6\/7 passed/m);
    expect(result.stdout).toMatch(/^ {2}refine +ok +6 +1 +0 +0 /m);
    expect(result.stdout).toMatch(/^ {2}crash +error +1 +0 +2 +0 /m);
    expect(result.stdout).toContain(' FAIL chat › refine\n   ✗ [turn 3] output-contains value=earlier prompts: none\n');
    expect(result.stdout).toContain('agent error (agent_failed); 2 assertions not graded');
    expect(result.stdout).toContain('turn 2 of 3: node exited with code 4');
  });

  it('names the turn in the JUnit, GitHub and Markdown reports', async () => {
    const junitFile = join(root, 'junit.xml');
    const reported = await run(['grade', runDir, '--reporter', 'github', '--reporter', `junit:${junitFile}`]);
    expect(reported.stdout).toMatch(
      /^::error file=chat\/evals\/evals.json,line=\d+,col=\d+,title=failed%3A chat › refine::\[turn 3\] output-contains value=/m,
    );
    expect(await readFile(junitFile, 'utf8')).toMatch(/<testcase name="\[turn 3\] output-contains value=/);
    const markdown = await run(['grade', runDir, '--reporter', 'markdown']);
    // Markdown escapes the brackets, so they show as typed.
    expect(markdown.stdout).toContain('| \\[turn 3\\] output-contains value=earlier prompts: none |');
  });

  it('grades the run again from its artifacts into the same rows, turns and all', async () => {
    const regraded = await run(['grade', runDir, '--json']);
    expect(regraded.stderr).toBe('');
    const { grading } = await caseFiles(runDir, 'refine');
    const gradedDir = JSON.parse(regraded.stdout).run_dir;
    expect(gradedDir).not.toBe(runDir);
    const again = await caseFiles(gradedDir, 'refine');
    expect(again.grading.assertion_results.map((row) => [row.turn, row.status, row.evidence])).toEqual(
      grading.assertion_results.map((row) => [row.turn, row.status, row.evidence]),
    );
  });

  it('writes the HTML report with each assertion carrying its turn', async () => {
    const report = await run(['report', runDir]);
    expect(report.code).toBe(0);
    const html = await readFile(join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('"turn":3');
    expect(html).toContain('"text":{"text":"output-contains value=earlier prompts: none"}');
  });
});
