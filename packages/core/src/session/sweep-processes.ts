import { readdirSync, readFileSync } from 'node:fs';

/**
 * Ends every process whose environment carries `name=value`. An agent's tools often start
 * processes in a new session (Claude Code's and Pi's bash do), which a process-group kill
 * misses; the environment is inherited all the same. Used where no PID namespace does it.
 * Returns the pids ended.
 */
export function sweepProcesses(name: string, value: string): number[] {
  if (process.platform !== 'linux') return [];
  const needle = `\0${name}=${value}\0`;
  const ended: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environment: string;
    try {
      environment = `\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`;
    } catch {
      continue; // gone already, or not ours to read
    }
    if (!environment.includes(needle)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch {
      // it ended on its own meanwhile
    }
  }
  return ended;
}
