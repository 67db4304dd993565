#!/usr/bin/env node
// An agent that tries to break out of the sandbox rather than do its task, for the `command`
// runner. It is told where things are (HOSTILE_* variables, passed with --pass-env), as a
// determined agent would find out, tries each attack for real, and prints a JSON report of what
// each one got. The tests check that none got anything.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { basename, dirname, join } from 'node:path';

const env = process.env;
const caseId = /CASE-(\w+)/.exec(readFileSync(process.argv[2], 'utf8'))?.[1] ?? '?';
const report = { case: caseId };

/** Runs a program; what it got is its exit status and the first line it printed, or why it could not start. */
const run = (file, ...args) => {
  const ran = spawnSync(file, args, { encoding: 'utf8', timeout: 10_000 });
  if (ran.error) return { started: false, detail: ran.error.code ?? ran.error.message };
  return { started: true, status: ran.status, detail: `${ran.stderr}${ran.stdout}`.trim().split('\n')[0] ?? '' };
};
const attempt = (action) => {
  try {
    return { ok: true, detail: action() ?? null };
  } catch (error) {
    return { ok: false, detail: error.code ?? error.message };
  }
};
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const entries = (dir) => attempt(() => readdirSync(dir).sort());

// The services' sockets (Docker's, the system bus, each user's runtime folder), before it makes anything there.
const runFolder = entries('/run');

// What it may do to the sandbox itself.
const status = readFileSync('/proc/self/status', 'utf8');
report.capabilities = {
  effective: /^CapEff:\s*(\w+)/m.exec(status)?.[1],
  bounding: /^CapBnd:\s*(\w+)/m.exec(status)?.[1],
};
mkdirSync('mnt');
mkdirSync('old');
report.mount = {
  remountRoot: run('mount', '-o', 'remount,rw', '/'),
  remountTarget: run('mount', '-o', 'remount,rw', env.HOSTILE_TARGET),
  tmpfs: run('mount', '-t', 'tmpfs', 'none', 'mnt'),
  unmountHome: run('umount', env.HOSTILE_USER_HOME),
  unmountTmp: run('umount', '-l', '/tmp'),
  unmountSkevalTmp: run('umount', '-l', env.HOSTILE_SKEVAL_TMP),
  pivotRoot: run('pivot_root', '.', 'old'),
  unshareUser: run('unshare', '-Ur', 'true'),
  unshareMount: run('unshare', '-m', 'true'),
};
// Whatever the mounts did, try what they were for.
report.hostWrites = {
  target: attempt(() => writeFileSync(env.HOSTILE_TARGET, 'escaped')),
  root: attempt(() => writeFileSync(`/skeval-hostile-${env.HOSTILE_NONCE}`, 'escaped')),
};
report.key = attempt(() => readFileSync(join(env.HOSTILE_USER_HOME, '.ssh', 'id_rsa'), 'utf8'));

// Wait for the other case runs (at --concurrency 4 they are running; at 1 they have finished).
sleep(Number(env.HOSTILE_WAIT_MS ?? 0));
const ownCaseRoot = basename(dirname(env.HOME));
const skevalFolders = (dir) => {
  const listed = attempt(() => readdirSync(dir).filter((name) => /^skeval-(case|trigger|graders|run)-/.test(name)));
  return listed.ok ? listed.detail.filter((name) => name !== ownCaseRoot) : [];
};
report.others = {
  // Other case runs' folders and the grader snapshot, wherever Skeval makes them.
  inSkevalTmp: skevalFolders(env.HOSTILE_SKEVAL_TMP),
  inTmp: skevalFolders('/tmp'),
  inVarTmp: skevalFolders('/var/tmp'),
  prompts: skevalFolders(env.HOSTILE_SKEVAL_TMP).flatMap(
    (name) => attempt(() => readdirSync(join(env.HOSTILE_SKEVAL_TMP, name, 'tmp'))).detail ?? [],
  ),
  // Rewriting the compiled graders would turn a failing verdict into a pass.
  graderRewrites: [env.HOSTILE_SKEVAL_TMP, '/tmp'].flatMap((dir) =>
    skevalFolders(dir)
      .filter((name) => name.startsWith('skeval-graders-'))
      .map((name) => attempt(() => writeFileSync(join(dir, name, 'pass.mjs'), 'process.stdout.write("{}")'))),
  ),
  // The artifacts of case runs that finished (the first run into this --output-dir made it).
  runFiles: attempt(() =>
    readdirSync(env.HOSTILE_OUTPUT_DIR, { recursive: true }).filter((path) => /assistant\.md|grading\.json/.test(path)),
  ),
  cache: entries(env.HOSTILE_CACHE_DIR),
};

// Host sockets: one in a folder it can see (its own program's), an abstract one, the services'.
const reach = (path) =>
  new Promise((resolve) => {
    const socket = connect(path);
    socket.setTimeout(3000, () => socket.destroy(new Error('ETIMEDOUT')));
    socket.on('data', (data) => {
      resolve(`answered: ${data}`);
      socket.destroy();
    });
    socket.on('error', (error) => resolve(error.code ?? error.message));
  });
report.sockets = {
  visible: await reach(env.HOSTILE_SOCKET),
  abstract: await reach(`\0${env.HOSTILE_ABSTRACT}`),
  run: runFolder,
};

// Leave what would fill the run folder: sparse files, and a flood of small ones.
if (env.HOSTILE_FLOOD) {
  for (let at = 1; at <= 5; at += 1) {
    writeFileSync(`sparse-${at}.bin`, '');
    truncateSync(`sparse-${at}.bin`, 60 * 1024 * 1024);
  }
  mkdirSync('flood');
  for (let at = 0; at < Number(env.HOSTILE_FLOOD); at += 1) writeFileSync(join('flood', `${at}.txt`), `${at}\n`);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
