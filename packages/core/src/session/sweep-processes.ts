import { readdirSync, readFileSync } from 'node:fs';

/**
 * The last process id the kernel handed out in Skeval's PID namespace, read before an agent
 * starts: the processes it starts get the ids after it. Undefined where it cannot be read.
 */
export function lastProcessId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const id = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'latin1').trim());
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` was handed out after `since`, up to `until`, the ids wrapping past their maximum. */
function handedOutBetween(pid: number, since: number, until: number): boolean {
  return since <= until ? pid > since && pid <= until : pid > since || pid <= until;
}

/**
 * Ends every process whose environment carries `name=value`. An agent's tools often start
 * processes in a new session (Claude Code's and Pi's bash do), which a process-group kill
 * misses; the environment is inherited all the same. Used where no PID namespace does it.
 * With `since` (`lastProcessId()` before the agent started), only the processes started since
 * are read: a machine's long-running processes cannot carry the marker. Returns the pids ended.
 */
export function sweepProcesses(name: string, value: string, since?: number): number[] {
  if (process.platform !== 'linux') return [];
  const needle = `\0${name}=${value}\0`;
  const until = since === undefined ? undefined : lastProcessId();
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
    if (since !== undefined && until !== undefined && !handedOutBetween(pid, since, until)) continue;
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
