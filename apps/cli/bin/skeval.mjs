#!/usr/bin/env node
// The `skeval` command as installed. This file is checked in, so a workspace install can link
// the bin before anything is built; the command itself is the build's dist/cli.js.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

try {
  await import('../dist/cli.js');
} catch (error) {
  const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || existsSync(built)) throw error;
  process.stderr.write(
    `skeval: ${built} does not exist: this checkout of Skeval is not built yet; run pnpm build at the root of the repository\n`,
  );
  process.exitCode = 3;
}
