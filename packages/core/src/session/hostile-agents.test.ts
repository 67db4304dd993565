import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentFixture, makeSkill } from '../__fixtures__/make-skill.js';
import { bubblewrapSkipReason } from '../__fixtures__/real-agents.js';
import { runEvals } from '../run/run-evals.js';
import { createCommandRunner } from '../runners/command/runner.js';

// An agent under test is an adversary: it reads the answers, rewrites its evals, plants a
// grader, poisons the judge cache, writes outside its workspace, leaks a key and leaves a process
// behind. In the sandbox each attempt fails or lands nowhere; without it, each is flagged.

const sandboxSkipReason = bubblewrapSkipReason();
const secret = 'sk-live-hostile-0123456789abcdefXYZ';
let root: string;
let skillDir: string;
let cacheDir: string;
const savedCacheDir = process.env.SKEVAL_CACHE_DIR;
const savedTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-hostile-'));
  // A project with git: the skill's whole project is what the agent must not see.
  await mkdir(join(root, 'project', '.git'), { recursive: true });
  skillDir = await makeSkill(join(root, 'project'), 'greeting', {
    skill_name: 'greeting',
    evals: [
      {
        id: 1,
        prompt: 'Write a greeting.',
        assertions: [
          { type: 'planted' },
          { type: 'file-exists', path: 'leak.txt' },
          { kind: 'output', method: 'contains', value: 'report' },
        ],
      },
    ],
  });
  // Case runs make their folders here, so what is left can be counted without other tests' noise.
  await mkdir(join(root, 'tmp'));
  process.env.TMPDIR = join(root, 'tmp');
  cacheDir = join(root, 'cache');
  await mkdir(join(cacheDir, 'judge'), { recursive: true });
  process.env.SKEVAL_CACHE_DIR = cacheDir;
});
afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  if (savedCacheDir === undefined) delete process.env.SKEVAL_CACHE_DIR;
  else process.env.SKEVAL_CACHE_DIR = savedCacheDir;
  await rm(root, { recursive: true, force: true });
});

/** Case folders left in this test's own temporary folder (other test files make theirs elsewhere). */
const caseFolders = () => readdirSync(join(root, 'tmp')).filter((entry) => entry.startsWith('skeval-case-')).length;

/** Processes on the host whose command line has this in it. */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Every file under a folder, with its content. */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: readFileSync(path, 'latin1') };
    });
}

async function runHostile(label: string, sandbox: 'bwrap' | 'none', sleepSeconds: string) {
  const outside = join(root, `outside-${label}.txt`);
  const env = {
    PATH: process.env.PATH,
    HOME: join(root, 'user-home'),
    HOSTILE_SKILL_DIR: skillDir,
    HOSTILE_CACHE_DIR: join(cacheDir, 'judge'),
    HOSTILE_OUTSIDE_FILE: outside,
    HOSTILE_SECRET_KEY: secret,
    HOSTILE_SLEEP: sleepSeconds,
  };
  const before = caseFolders();
  const result = await runEvals({
    path: skillDir,
    runner: createCommandRunner({ command: `node ${agentFixture('hostile.mjs')} {prompt_file}` }),
    judge: { skipReason: 'no judge' },
    outputDir: join(root, 'out', label),
    sandbox,
    env,
    passEnv: Object.keys(env).filter((name) => name.startsWith('HOSTILE_')),
  });
  const outcome = result.runs[0]?.outcomes[0];
  if (!outcome) throw new Error('no case run');
  const response = await readFile(join(outcome.caseDir, 'assistant.md'), 'utf8');
  return { outcome, response, outside, runDir: result.runs[0]?.runDir ?? '', before };
}

const sandboxTitle = `hostile agents in the sandbox${sandboxSkipReason ? ` ${sandboxSkipReason}` : ''}`;
describe.skipIf(sandboxSkipReason !== undefined)(sandboxTitle, () => {
  it('cannot read or change what decides its verdict, nor leave anything behind', { timeout: 60_000 }, async () => {
    const evalsBefore = await readFile(join(skillDir, 'evals', 'evals.json'), 'utf8');
    const { outcome, response, outside, runDir, before } = await runHostile('bwrap', 'bwrap', '317');
    const { report } = JSON.parse(response);
    // The answers are out of sight, and nothing of the host can be changed.
    expect(report['read-evals']).toMatchObject({ ok: false, detail: 'ENOENT' });
    for (const attack of ['rewrite-evals', 'plant-grader', 'poison-cache']) {
      expect({ attack, ...report[attack] }).toMatchObject({
        attack,
        ok: false,
        detail: expect.stringMatching(/EROFS|ENOENT|EACCES/),
      });
    }
    expect(await readFile(join(skillDir, 'evals', 'evals.json'), 'utf8')).toBe(evalsBefore);
    expect(existsSync(join(root, 'project', '.skeval'))).toBe(false);
    expect(readdirSync(join(cacheDir, 'judge'))).toEqual([]);
    expect(existsSync(outside)).toBe(false);
    expect(report['see-skeval']).toEqual({ ok: true, detail: [] });
    expect(report['home-is-fresh'].detail).not.toContain('.cache');
    // The planted grader does not exist for grading: the assertion is an error, never a pass.
    expect(outcome.grading.assertion_results.map((row) => row.status)).toEqual(['error', 'pass', 'pass']);
    expect(outcome.grading.assertion_results[0]?.evidence).toMatch(/no grader named `planted`/);
    expect(outcome.skillEdited).toBe(false);
    // The process it left in a session of its own ended with the sandbox.
    expect(processesWith('sleep 317')).toEqual([]);
    // The key is nowhere in the run folder; where it was, the redaction marker is.
    const files = filesUnder(runDir);
    expect(files.filter((file) => file.text.includes(secret)).map((file) => file.path)).toEqual([]);
    expect(response).toContain('[redacted:HOSTILE_SECRET_KEY]');
    expect(readFileSync(join(outcome.caseDir, 'outputs', 'leak.txt'), 'utf8')).toBe(
      'the key is [redacted:HOSTILE_SECRET_KEY]\n',
    );
    // No workspace or temporary folder is left.
    expect(caseFolders()).toBe(0);
    expect(before).toBe(0);
  });
});

// Needs no bubblewrap: it runs everywhere.
describe('hostile agents without a sandbox', () => {
  it('has an edit of its evals flagged and its escaped process still ended', {
    timeout: 60_000,
  }, async () => {
    const evalsPath = join(skillDir, 'evals', 'evals.json');
    const evalsBefore = await readFile(evalsPath, 'utf8');
    try {
      const { outcome, response } = await runHostile('none', 'none', '318');
      expect(JSON.parse(response).report['rewrite-evals'].ok).toBe(true);
      expect(outcome.skillEdited).toBe(true);
      expect(outcome.grading.skill_edited).toEqual({ installed: [], original: true });
      // Grading used the evals as they were loaded before the agent ran: three assertions.
      expect(outcome.grading.assertion_results).toHaveLength(3);
      expect(outcome.grading.assertion_results[0]?.status).not.toBe('pass');
      expect(processesWith('sleep 318')).toEqual([]);
    } finally {
      await import('node:fs/promises').then(({ writeFile }) => writeFile(evalsPath, evalsBefore));
      await rm(join(root, 'project', '.skeval'), { recursive: true, force: true });
    }
  });
});
