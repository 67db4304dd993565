import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The environment of a user's shell: no npm_* or pnpm settings from the test runner's own
 * `pnpm test`, no folder of this repository on PATH (so nothing of the workspace leaks in), no
 * colours and no update notices; `extra` is set on top.
 */
export function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_)/i.test(key) || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry && !entry.startsWith(repoRoot))
    .join(delimiter);
  env.NO_COLOR = '1';
  env.NO_UPDATE_NOTIFIER = '1';
  return { ...env, ...extra };
}
