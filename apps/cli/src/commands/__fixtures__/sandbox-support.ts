import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

/** Whether bubblewrap can make a sandbox on this machine: a read-only root and a PID namespace. */
export function bubblewrapWorks(): boolean {
  return spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', 'true']).status === 0;
}

/** `command` as it is, or as the user `owner` when one is given (setpriv drops root's privileges first). */
export function asOwner(command: string[], owner: number | undefined): string[] {
  if (owner === undefined) return command;
  return ['setpriv', `--reuid=${owner}`, `--regid=${owner}`, '--clear-groups', ...command];
}

/** The folder name of the one run under a skill's runs folder, its `latest` links left out. */
export function onlyRunId(skillRuns: string): string {
  return readdirSync(skillRuns).find((name) => name !== 'latest' && name !== 'latest.json') ?? '';
}
