import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSkill } from './skill-files.js';

/**
 * Text that breaks careless reports: the end of a CDATA section, markup, an ampersand, quotes,
 * a NUL and an escape sequence (XML 1.0 allows neither), a workflow command's separators, a
 * lone surrogate, a non-character.
 */
export const hostileText = `]]> <b>bold</b> & "double" 'single' \u0000 nul \u001b[31mred\u001b[0m 100% a:b,c \n::error::x \ud800 \ufffe`;

/** A long word-rich sentence: evidence that has to be bounded. */
export const longText = Array.from({ length: 60 }, (_, at) => `word${at}`).join(' ');

export const longCaseId = 'a-case-id-that-goes-on-and-on-well-past-any-column-a-terminal-table-has';

/**
 * A project for report tests: an agent that answers what its prompt asks (a greeting file, a
 * hostile answer, a long answer, a crash), a custom grader that echoes the answer as evidence
 * and one that crashes, and skills whose cases pass, fail, error and skip.
 */
export async function createReportProject(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-reports-'));
  await mkdir(join(root, '.skeval', 'graders'), { recursive: true });
  await writeFile(
    join(root, '.skeval', 'graders', 'echo-answer.mjs'),
    [
      'const chunks = [];',
      'for await (const chunk of process.stdin) chunks.push(chunk);',
      "const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));",
      "const assertions = [{ text: 'the answer is echoed', passed: false, evidence: payload.output }];",
      'process.stdout.write(JSON.stringify({ score: 0, assertions }));',
    ].join('\n'),
  );
  await writeFile(
    join(root, '.skeval', 'graders', 'crash.mjs'),
    "process.stderr.write('grader fell over\\n');\nprocess.exit(3);\n",
  );
  await writeFile(
    join(root, 'agent.mjs'),
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "const prompt = readFileSync(process.argv[2], 'utf8');",
      "if (prompt.includes('crash')) { process.stderr.write('segfault simulated\\n'); process.exit(1); }",
      "if (prompt.includes('greet')) writeFileSync('greeting.txt', 'Hello!\\n');",
      `if (prompt.includes('hostile')) process.stdout.write(${JSON.stringify(hostileText)});`,
      `else if (prompt.includes('long')) process.stdout.write(${JSON.stringify(longText)});`,
      "else process.stdout.write('Done.');",
    ].join('\n'),
  );
  await writeReportSkill(root, 'reports', [
    { id: 1, prompt: 'greet', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
    {
      id: 'hostile',
      prompt: 'hostile',
      assertions: [
        { type: 'echo-answer' },
        { type: 'crash' },
        { type: 'file-exists', path: 'missing.txt' },
        `A prose claim ${hostileText}`,
      ],
    },
    { id: 'crashes', prompt: 'crash', assertions: [{ type: 'file-exists', path: 'greeting.txt' }] },
  ]);
  await writeReportSkill(root, 'long', [
    {
      id: longCaseId,
      prompt: 'long greet',
      assertions: [{ type: 'echo-answer' }, { type: 'file-exists', path: 'greeting.txt' }],
    },
    {
      id: 'many-failures',
      prompt: 'greet',
      assertions: Array.from({ length: 25 }, (_, at) => ({ type: 'file-exists', path: `missing-${at}.txt` })),
    },
  ]);
  return root;
}

function writeReportSkill(root: string, name: string, cases: unknown[]): Promise<string> {
  return writeSkill(join(root, name), { name, description: 'a skill for report tests', evals: cases });
}

/** The agent flags for the fixture's agent. */
export const agentFlags = (root: string) => [
  '--agent',
  'command',
  '--agent-command',
  `node ${join(root, 'agent.mjs')} {prompt_file}`,
];
