#!/usr/bin/env node
// The `skeval` command as installed. This file is checked in, so a workspace install can link
// the bin before anything is built; the command itself is the build's dist/cli.js.
import { existsSync } from 'node:fs';
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1 and later keep the code they compile from Skeval's files on disk (in the system's
// temporary folder, or where NODE_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE=1 turns it off),
// so a command starts without compiling its bundle again. Node 20 has no such cache.
nodeModule.enableCompileCache?.();

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
