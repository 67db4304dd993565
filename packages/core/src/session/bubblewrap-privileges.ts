import { spawnSync } from 'node:child_process';
import type { SandboxPrivileges } from './sandbox.js';

/** A way of starting bubblewrap without the user's privileges, and what the agent is left with. */
export interface BubblewrapPrivilegeLevel {
  flags: readonly string[];
  privileges: SandboxPrivileges;
}

/**
 * The ways tried, best first. Root keeps every capability in bubblewrap unless told otherwise
 * (`CapEff: 000001fffeffffff`: it can remount `/` read-write or unmount what hides a folder),
 * so capabilities are always dropped. A user namespace of its own empties the bounding set too
 * and, with `--disable-userns` (bubblewrap 0.8), leaves the agent no way to make a namespace in
 * which it would hold capabilities again. Older bubblewrap has no `--disable-userns`: a nested
 * namespace gets capabilities over nothing it was given (the mounts stay locked). Where user
 * namespaces cannot be made (a kernel that forbids them), the agent cannot make one either.
 */
export const bubblewrapPrivilegeLevels: readonly BubblewrapPrivilegeLevel[] = [
  {
    flags: ['--unshare-user', '--disable-userns', '--cap-drop', 'ALL'],
    privileges: { capabilities: 'none', userNamespace: 'own' },
  },
  {
    flags: ['--unshare-user', '--cap-drop', 'ALL'],
    privileges: { capabilities: 'none', userNamespace: 'own-nestable' },
  },
  { flags: ['--cap-drop', 'ALL'], privileges: { capabilities: 'none', userNamespace: 'host' } },
];

/**
 * The first level under which bubblewrap starts here and the program inside has no capability
 * left (read from its `/proc/self/status`), or why none does.
 */
export function probeBubblewrapPrivileges(
  executable: string,
): { level: BubblewrapPrivilegeLevel } | { problem: string } {
  const problems: string[] = [];
  for (const level of bubblewrapPrivilegeLevels) {
    const args = [...level.flags, '--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', '--proc', '/proc'];
    const tried = spawnSync(executable, [...args, 'cat', '/proc/self/status'], { encoding: 'utf8', timeout: 10_000 });
    if (tried.error) return { problem: `${executable} cannot be started (${tried.error.message})` };
    const capabilities = /^CapEff:\s*([0-9a-f]+)$/m.exec(tried.stdout)?.[1];
    if (tried.status === 0 && capabilities !== undefined && /^0+$/.test(capabilities)) return { level };
    problems.push(
      tried.status === 0
        ? `${level.flags.join(' ')} left the capabilities ${capabilities ?? '(unreadable)'}`
        : tried.stderr.trim() || `exit ${tried.status}`,
    );
  }
  return { problem: `${executable} does not work here: ${[...new Set(problems)].join('; ')}` };
}
