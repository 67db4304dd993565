// Installs the agent CLIs the conformance tests drive (Claude Code, Codex, Pi) at the versions
// pinned in package.json, into tools/agent-clis/installed/ — apart from the pnpm workspace, so a
// plain `pnpm install` stays small. `.ci/run` runs this; so can you: `pnpm agents:install`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const { clis } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')).skeval;
const prefix = `${here}installed`;
const wanted = Object.values(clis).map(({ package: name, version }) => `${name}@${version}`);
const installedVersion = (name) => {
  const manifest = `${prefix}/node_modules/${name}/package.json`;
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
};
const missing = Object.values(clis).filter(({ package: name, version }) => installedVersion(name) !== version);
if (missing.length === 0) {
  console.log(`agent CLIs already installed: ${wanted.join(', ')}`);
} else {
  console.log(`installing ${wanted.join(', ')} into ${prefix}`);
  const result = spawnSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', ...wanted], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
