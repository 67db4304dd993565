/**
 * The spawn helper's program, run as `node -e`: a small process that starts agents' programs
 * for Skeval, so each start copies its few megabytes and not Skeval's (a process start copies
 * its parent's page tables). Messages over the IPC channel: `start` (a program, its folder,
 * environment and stdout limit), `kill` (its process group); back: `out` (stdout as it arrives,
 * when asked for), `end` (exit code, stdout, the tail of stderr, why it stopped). When Skeval
 * goes away, every process group it started is killed and the helper ends.
 */
export const spawnHelperSource = `'use strict';
const { spawn } = require('node:child_process');
const running = new Map();
const killGroup = (child) => { try { process.kill(-child.pid, 'SIGKILL'); } catch { try { child.kill('SIGKILL'); } catch {} } };
process.on('message', (m) => {
  if (m.type === 'kill') { const r = running.get(m.id); if (r) killGroup(r.child); return; }
  let child;
  try {
    child = spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    process.send({ type: 'end', id: m.id, exitCode: null, stdout: '', stderr: '', tooLarge: false, startError: String(error && error.message) });
    return;
  }
  const r = { child, out: [], bytes: 0, err: '', tooLarge: false, startError: undefined };
  running.set(m.id, r);
  child.stdout.on('data', (chunk) => {
    if (r.tooLarge) return;
    r.bytes += chunk.length;
    if (r.bytes > m.maxOutputBytes) { r.tooLarge = true; killGroup(child); return; }
    r.out.push(chunk);
    if (m.stream) process.send({ type: 'out', id: m.id, chunk: chunk.toString('utf8') });
  });
  child.stderr.on('data', (chunk) => { r.err = (r.err + chunk.toString('utf8')).slice(-m.stderrTailBytes); });
  child.on('error', (error) => { r.startError = error.message; });
  child.on('close', (code) => {
    running.delete(m.id);
    if (child.pid) killGroup(child);
    process.send({ type: 'end', id: m.id, exitCode: r.startError ? null : code, stdout: Buffer.concat(r.out).toString('utf8'), stderr: r.err, tooLarge: r.tooLarge, startError: r.startError });
  });
});
process.on('disconnect', () => { for (const r of running.values()) killGroup(r.child); process.exit(0); });
`;
