import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programPaths } from './program-paths.js';

// The install layouts a user's agent CLI comes in, made as files and links on disk: what the
// sandbox keeps readable for each.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-layouts-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function file(path: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, { mode });
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path);
}

describe('an agent CLI installed', () => {
  it('by npm i -g --prefix: the prefix node_modules behind the bin link, and the link itself', async () => {
    const prefix = join(root, 'npm-global');
    await file(join(prefix, 'lib/node_modules/@openai/codex/bin/codex.js'), '#!/usr/bin/env node\n', 0o755);
    await link('../lib/node_modules/@openai/codex/bin/codex.js', join(prefix, 'bin/codex'));
    const paths = programPaths('codex', join(prefix, 'bin'));
    expect(paths).toContain(join(prefix, 'lib/node_modules'));
    expect(paths).toContain(join(prefix, 'bin/codex'));
  });

  it('with nvm: the node its PATH starts, beside the CLI', async () => {
    const version = join(root, 'nvm/versions/node/v20.19.0');
    await file(join(version, 'bin/node'), '', 0o755);
    await file(
      join(version, 'lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js'),
      '#!/usr/bin/env node\n',
      0o755,
    );
    await link('../lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js', join(version, 'bin/pi'));
    const paths = programPaths('pi', join(version, 'bin'));
    expect(paths).toContain(join(version, 'bin'));
    expect(paths).toContain(join(version, 'lib/node_modules'));
  });

  it("by pnpm add -g: the store a shim script's exec line names", async () => {
    const pnpmHome = join(root, 'pnpm-home');
    const cli = join(
      pnpmHome,
      'global/5/node_modules/.pnpm/@openai+codex@0.171.0/node_modules/@openai/codex/bin/codex.js',
    );
    await file(cli, '#!/usr/bin/env node\n', 0o755);
    const shim = [
      '#!/bin/sh',
      'basedir=$(dirname "$(echo "$0" | sed -e \'s,\\\\,/,g\')")',
      `export NODE_PATH="${join(pnpmHome, 'global/5/node_modules/.pnpm/node_modules')}"`,
      'exec node  "$basedir/global/5/node_modules/@openai/codex/bin/codex.js" "$@"',
    ].join('\n');
    await file(join(pnpmHome, 'codex'), `${shim}\n`, 0o755);
    const paths = programPaths('codex', pnpmHome);
    expect(paths).toContain(join(pnpmHome, 'global/5/node_modules'));
    expect(paths).toContain(join(pnpmHome, 'codex'));
  });

  it("through a bin link into pnpm's .pnpm store: the whole store, dependencies included", async () => {
    const store = join(root, 'project/node_modules/.pnpm/@anthropic-ai+claude-code@2.1.0/node_modules');
    await file(join(store, '@anthropic-ai/claude-code/bin/claude.exe'), '\0binary', 0o755);
    await link(join(store, '@anthropic-ai/claude-code/bin/claude.exe'), join(root, 'bin/claude'));
    expect(programPaths('claude', join(root, 'bin'))).toContain(join(root, 'project/node_modules'));
  });

  it('as a package unpacked outside node_modules: the folder of its package.json with a bin', async () => {
    const unpacked = join(root, 'opt/pi');
    await file(join(unpacked, 'package.json'), JSON.stringify({ name: 'pi', bin: { pi: 'dist/cli.js' } }));
    await file(join(unpacked, 'dist/cli.js'), '#!/usr/bin/env node\n', 0o755);
    expect(programPaths(join(unpacked, 'dist/cli.js'), '')).toContain(unpacked);
  });

  it("through volta's shim: volta's own folder, where the shim finds the tools", async () => {
    const volta = join(root, 'volta');
    await file(join(volta, 'bin/volta-shim'), '\0binary', 0o755);
    await link(join(volta, 'bin/volta-shim'), join(volta, 'bin/codex'));
    expect(programPaths('codex', join(volta, 'bin'))).toContain(volta);
  });
});
