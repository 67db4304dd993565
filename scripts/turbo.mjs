// Runs turbo with the Node major in the environment, so turbo's cache keys
// (turbo.json globalEnv) never mix builds made under different Node versions.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const turboBin = require.resolve('turbo/bin/turbo');
// Turbo's telemetry notice on a first build says nothing about Skeval: off unless asked for.
const env = {
  TURBO_TELEMETRY_DISABLED: '1',
  ...process.env,
  SKEVAL_NODE_MAJOR: process.versions.node.split('.')[0],
};
const result = spawnSync(process.execPath, [turboBin, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exitCode = result.status ?? 1;
