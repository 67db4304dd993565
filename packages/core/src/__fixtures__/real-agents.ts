import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = new URL('../../../../', import.meta.url).pathname;
const binFolder = join(repoRoot, 'tools/agent-clis/installed/node_modules/.bin');

/** The installed CLI of an agent, from tools/agent-clis (`pnpm agents:install`). */
export function agentBinary(name: 'claude' | 'codex' | 'pi'): string {
  return join(binFolder, name);
}

function bubblewrapWorks(): boolean {
  const tried = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', 'true']);
  return tried.status === 0;
}

/**
 * Why the tests that run agents in the bubblewrap sandbox cannot run here, or undefined when they
 * can. In CI they never skip: a bubblewrap that does not work fails them instead.
 */
export function bubblewrapSkipReason(): string | undefined {
  if (process.env.CI || bubblewrapWorks()) return undefined;
  return 'skipped: bubblewrap does not work here (apt-get install -y bubblewrap)';
}

/**
 * Why the tests that drive real agent CLIs in the sandbox cannot run here (every reason that
 * holds), or undefined when they can. In CI they never skip: a missing CLI or bubblewrap fails
 * them instead.
 */
export function realAgentsSkipReason(): string | undefined {
  if (process.env.CI) return undefined;
  const missing = (['claude', 'codex', 'pi'] as const).filter((name) => !existsSync(agentBinary(name)));
  const reasons = [
    ...(missing.length ? [`${missing.join(', ')} not installed (pnpm agents:install)`] : []),
    ...(bubblewrapWorks() ? [] : ['bubblewrap does not work here (apt-get install -y bubblewrap)']),
  ];
  return reasons.length ? `skipped: ${reasons.join('; ')}` : undefined;
}
