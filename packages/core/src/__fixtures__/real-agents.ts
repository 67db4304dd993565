import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runEvals } from '../run/run-evals.js';
import { createRunner } from '../runners/create-runner.js';

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

/** A real agent CLI as the tests drive it: Skeval's name for it, its program, the model it asks for. */
export interface RealAgent {
  name: 'claude-code' | 'codex' | 'pi';
  binary: 'claude' | 'codex' | 'pi';
  model: string;
}

/**
 * The one case of the skill at `skillDir` through the real `agent` in the bubblewrap sandbox,
 * with no judge and exactly `env`, into `outputDir`: the outcome of that case run.
 */
export async function runRealAgentCase(options: {
  agent: RealAgent;
  skillDir: string;
  env: NodeJS.ProcessEnv;
  outputDir: string;
  timeoutMs: number;
}) {
  const { agent, env } = options;
  const runner = createRunner({ agent: agent.name, executable: agentBinary(agent.binary), model: agent.model, env });
  const result = await runEvals({
    path: options.skillDir,
    runner,
    judge: { skipReason: 'no judge in this test' },
    outputDir: options.outputDir,
    sandbox: 'bwrap',
    env,
    timeoutMs: options.timeoutMs,
  });
  const outcome = result.runs[0]?.outcomes[0];
  if (!outcome) throw new Error('no case run');
  return outcome;
}
