import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { afterAll, describe, expect, it } from 'vitest';
import { userEnv } from './user-env.js';

// The docs, run as written: every shell block of README.md and docs/ runs, in a fresh folder
// holding a copy of examples/, with `skeval` the built command line. A block that cannot run
// offline or as written says so in a comment on the line before it, which this test reads:
//   <!-- docs-test: skip: <why> -->   not run, and the test's name says why
//   <!-- docs-test: install -->       the install route: run with the clone and a new project for its paths
//   <!-- docs-test: setup -->         run as written at the root of the clone

const root = fileURLToPath(new URL('..', import.meta.url));

interface Block {
  file: string;
  line: number;
  code: string;
  marker: { kind: 'run' } | { kind: 'skip'; reason: string } | { kind: 'install' } | { kind: 'setup' };
}

const fence = /^```(sh|bash|shell)\s*$/;

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let at = 0; at < lines.length; at += 1) {
    if (!fence.test(lines[at] ?? '')) continue;
    const end = lines.findIndex((line, index) => index > at && line.startsWith('```'));
    let before = at - 1;
    while (before >= 0 && (lines[before] ?? '').trim() === '') before -= 1;
    const comment = /^<!-- docs-test: (.+?) -->$/.exec((lines[before] ?? '').trim())?.[1];
    const marker: Block['marker'] =
      comment === undefined
        ? { kind: 'run' }
        : comment === 'install' || comment === 'setup'
          ? { kind: comment }
          : comment.startsWith('skip: ')
            ? { kind: 'skip', reason: comment.slice(6) }
            : { kind: 'skip', reason: `unknown marker "${comment}"` };
    blocks.push({ file, line: at + 1, code: lines.slice(at + 1, end).join('\n'), marker });
    at = end;
  }
  return blocks;
}

const files = ['README.md', ...(await glob(['docs/*.md'], { cwd: root })).sort()];
const blocks = files.flatMap(blocksOf);

/** A user's shell (see `userEnv`), with Turborepo's telemetry off too. */
const shellEnv = () => userEnv({ TURBO_TELEMETRY_DISABLED: '1' });

function bash(script: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env: shellEnv() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The commands as a reader types them: `skeval` is the built command line of this clone. */
const prelude = [
  `REPO=${JSON.stringify(root)}`,
  'skeval() { node "$REPO/apps/cli/dist/cli.js" "$@"; }',
  'skeval-assert() { node "$REPO/apps/assert/dist/cli.js" "$@"; }',
].join('\n');

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A folder like a clone's root for a block: a copy of examples/ (no runs), and the built apps. */
async function sandboxFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skeval-docs-'));
  temps.push(dir);
  await cp(join(root, 'examples'), join(dir, 'examples'), {
    recursive: true,
    filter: (source) => !/\/(node_modules|runs|evals-runs)$/.test(source),
  });
  await symlink(join(root, 'examples', 'node_modules'), join(dir, 'examples', 'node_modules'));
  await symlink(join(root, 'apps'), join(dir, 'apps'));
  return dir;
}

function registrySkipReason(): string | undefined {
  if (process.env.CI) return undefined;
  const ping = spawnSync('npm', ['ping'], { env: shellEnv(), encoding: 'utf8', timeout: 30_000 });
  return ping.status === 0 ? undefined : 'npm cannot reach its registry (npm ping failed)';
}
const offline = blocks.some((block) => block.marker.kind !== 'run' && block.marker.kind !== 'skip')
  ? registrySkipReason()
  : undefined;

const named = (block: Block) => `${block.file}:${block.line}`;

describe('every shell block of the docs', () => {
  it('is marked when it does not run as written, with a reason', () => {
    expect(blocks.length).toBeGreaterThan(10);
    const unknown = blocks.filter((block) => block.marker.kind === 'skip' && block.marker.reason.startsWith('unknown'));
    expect(unknown.map(named)).toEqual([]);
  });

  for (const block of blocks) {
    const { marker } = block;
    if (marker.kind === 'skip') {
      // Not run (the reason says why), but what it names must exist: each skeval command and its
      // flags in that command's --help, and every other program on PATH.
      it(`${named(block)} is not run (${marker.reason}); the commands and flags it names exist`, () => {
        expect(unknownNames(block.code)).toEqual([]);
      });
      continue;
    }
    if (marker.kind === 'run') {
      it(`${named(block)} runs as written`, async () => {
        const ran = await bash(`${prelude}\n${block.code}`, await sandboxFolder());
        expect(ran.code, `${named(block)}:\n${block.code}\n---\n${ran.output}`).toBe(0);
      }, 300_000);
      continue;
    }
    const title = `${named(block)} (${marker.kind}) runs as written${offline ? ` — skipped: ${offline}` : ''}`;
    it.skipIf(offline !== undefined)(
      title,
      async () => {
        const project = await mkdtemp(join(tmpdir(), 'skeval-docs-project-'));
        temps.push(project);
        // The install route: the clone is this repository, the project an empty folder.
        const code =
          marker.kind === 'install'
            ? block.code.replaceAll('/path/to/skeval', root).replaceAll('/path/to/your-project', project)
            : block.code;
        await mkdir(project, { recursive: true });
        const ran = await bash(code, root);
        expect(ran.code, `${named(block)}:\n${code}\n---\n${ran.output}`).toBe(0);
        if (marker.kind === 'install') expect(ran.output).toMatch(/\n\d+\.\d+\.\d+\S*\n?$/);
      },
      900_000,
    );
  }
});

const helpOf = new Map<string, string>();
/** `skeval <command> --help`, read once per command. */
function skevalHelp(command: string): string {
  let help = helpOf.get(command);
  if (help === undefined) {
    const ran = spawnSync(process.execPath, [join(root, 'apps/cli/dist/cli.js'), command, '--help'], {
      encoding: 'utf8',
    });
    help = ran.status === 0 ? ran.stdout : '';
    helpOf.set(command, help);
  }
  return help;
}

/** The skeval commands, flags and programs a block names that do not exist here. */
function unknownNames(code: string): string[] {
  const unknown: string[] = [];
  for (const raw of code.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) continue;
    const words = line.split(/\s+/);
    const at = words.findIndex((word) => word === 'skeval');
    if (at !== -1) {
      const command = words[at + 1] ?? '';
      const help = skevalHelp(command);
      if (!help) unknown.push(`skeval ${command}`);
      else
        for (const flag of words.slice(at + 2).filter((word) => /^--[a-z]/.test(word)))
          if (!help.includes(flag.split('=')[0] ?? flag)) unknown.push(`skeval ${command} ${flag}`);
      continue;
    }
    const program = words.find((word) => !/^[A-Z_]+=/.test(word)) ?? '';
    if (spawnSync('sh', ['-c', 'command -v "$0"', program]).status !== 0) unknown.push(program);
  }
  return unknown;
}
