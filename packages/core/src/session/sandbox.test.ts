import { once } from 'node:events';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedCodexConfig } from '../runners/codex/runner.js';
import { bubblewrapArgs } from './bubblewrap.js';
import { hostSocketPaths } from './host-sockets.js';
import { programPaths } from './program-paths.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-sandbox-'));
  await mkdir(join(root, 'project', 'node_modules', '.bin'), { recursive: true });
  await mkdir(join(root, 'hidden-folder', 'inside'), { recursive: true });
  await writeFile(join(root, 'hidden-file'), 'secret');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const operandCounts: Record<string, number> = {
  '--tmpfs': 1,
  '--remount-ro': 1,
  '--ro-bind': 2,
  '--bind': 2,
  '--chdir': 1,
  '--dev': 1,
  '--proc': 1,
  '--cap-drop': 1,
  '--symlink': 2,
};

/** bubblewrap's arguments as flags with their operands: `[['--tmpfs', '/tmp'], ['--ro-bind', from, to], …]`. */
function flagsOf(args: readonly string[]): string[][] {
  const flags: string[][] = [];
  for (let at = 0; at < args.length; ) {
    const count = operandCounts[args[at] ?? ''] ?? 0;
    flags.push(args.slice(at, at + 1 + count));
    at += 1 + count;
  }
  return flags;
}

describe('bubblewrap arguments', () => {
  it('mounts the host read-only, hides what it must, then binds the writable places last', () => {
    const plan = {
      workspaceDir: join(root, 'ws'),
      homeDir: join(root, 'home'),
      tmpDir: join(root, 'tmp'),
      readable: [join(root, 'project', 'node_modules')],
      hidden: [
        join(root, 'hidden-folder'),
        join(root, 'hidden-folder', 'inside'),
        join(root, 'hidden-file'),
        join(root, 'not-there'),
      ],
      network: 'none' as const,
    };
    const args = bubblewrapArgs(plan, { hostSockets: [] });
    expect(args.slice(0, 10)).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--new-session',
      '--ro-bind',
      '/',
      '/',
    ]);
    const hide = args.indexOf(join(root, 'hidden-folder'));
    expect(args[hide - 1]).toBe('--tmpfs');
    // Read-only once the mount points inside it exist.
    expect(args.lastIndexOf(join(root, 'hidden-folder'))).toBeGreaterThan(args.lastIndexOf('--bind'));
    expect(args[args.lastIndexOf(join(root, 'hidden-folder')) - 1]).toBe('--remount-ro');
    expect(args).toContain('/dev/null');
    expect(args).not.toContain(join(root, 'not-there'));
    expect(args).not.toContain(join(root, 'hidden-folder', 'inside'));
    // The program stays readable, and the writable binds come after every mount that could cover them.
    expect(args.indexOf(join(root, 'project', 'node_modules'))).toBeGreaterThan(hide);
    expect(args.lastIndexOf('--bind')).toBeGreaterThan(args.indexOf(join(root, 'project', 'node_modules')));
    expect(args.slice(-3)).toEqual(['--unshare-net', '--chdir', join(root, 'ws')]);
  });

  it('empties the temporary places, and without the network the socket places and each host socket it would show', async () => {
    // The agent's program folder is readable, wherever it is: a socket in it would answer.
    const programFolder = join(root, 'project');
    const socket = join(programFolder, 'host.sock');
    const plan = {
      workspaceDir: join(root, 'ws'),
      homeDir: join(root, 'home'),
      tmpDir: join(root, 'tmp'),
      readable: [programFolder],
      hidden: [join(root, 'hidden-folder')],
      network: 'none' as const,
    };
    const server = createServer().listen(socket);
    await once(server, 'listening');
    try {
      const hostSockets = [socket, join(root, 'hidden-folder', 'inside', 'gone.sock'), '/tmp/.X11-unix/X0'];
      const args = bubblewrapArgs(plan, { hostSockets });
      const flags = flagsOf(args);
      expect(flags).toEqual(
        expect.arrayContaining([
          ['--tmpfs', '/tmp'],
          ['--tmpfs', '/run'],
        ]),
      );
      if (existsSync('/var/tmp')) expect(flags).toContainEqual(['--tmpfs', realpathSync('/var/tmp')]);
      // Covered after every bind that could show it; the others are gone with what hides them.
      expect(args.slice(args.indexOf('--unshare-net'), -2)).toEqual([
        '--unshare-net',
        '--ro-bind',
        '/dev/null',
        socket,
      ]);
      const online = flagsOf(bubblewrapArgs({ ...plan, network: 'on' }, { hostSockets }));
      expect(online).not.toContainEqual(['--tmpfs', '/run']);
      expect(online).not.toContainEqual(['--ro-bind', '/dev/null', socket]);
      expect(online.flat()).not.toContain('--unshare-net');
    } finally {
      server.close();
    }
  });

  it('binds a program reached through a symbolic link at its real path, and links to it from where it is hidden', async () => {
    await mkdir(join(root, 'elsewhere', 'node_modules'), { recursive: true });
    await symlink(join(root, 'elsewhere'), join(root, 'hidden-folder', 'installed'));
    const real = join(root, 'elsewhere', 'node_modules');
    const plan = {
      workspaceDir: join(root, 'ws'),
      homeDir: join(root, 'home'),
      tmpDir: join(root, 'tmp'),
      readable: [join(root, 'hidden-folder', 'installed', 'node_modules')],
      hidden: [join(root, 'hidden-folder')],
      network: 'on' as const,
    };
    const binds = flagsOf(bubblewrapArgs(plan)).filter(([flag]) => flag === '--ro-bind' || flag === '--symlink');
    // bubblewrap cannot follow the link to make a mount point: the path as given is a link of
    // the hidden tmpfs to the real one, so a program started through it finds what is beside it.
    expect(binds).toEqual([
      ['--ro-bind', '/', '/'],
      ['--ro-bind', real, real],
      ['--symlink', real, join(root, 'hidden-folder', 'installed', 'node_modules')],
    ]);
  });

  it('keeps an npm-installed program readable through its outermost node_modules', async () => {
    const program = join(root, 'project', 'node_modules', '.bin', 'agent');
    await writeFile(program, '#!/bin/sh\n', { mode: 0o755 });
    expect(programPaths(program, '')).toContain(join(root, 'project', 'node_modules'));
  });
});

describe('the host sockets', () => {
  it('are the paths /proc/net/unix lists, once each, without abstract or unnamed sockets', () => {
    const listing = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21123 /run/docker.sock',
      '0000000000000000: 00000003 00000000 00000000 0001 03 21124 /run/docker.sock',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21125 @/tmp/.X11-unix/X0',
      '0000000000000000: 00000002 00000000 00000000 0002 01 21126',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21127 /home/ada/my socket',
    ].join('\n');
    expect(hostSocketPaths(listing)).toEqual(['/home/ada/my socket', '/run/docker.sock']);
  });

  it('include one this process listens on', async () => {
    const socket = join(root, 'listening.sock');
    const server = createServer().listen(socket);
    await once(server, 'listening');
    try {
      expect(hostSocketPaths()).toContain(socket);
    } finally {
      server.close();
    }
  });
});

describe('the isolated Codex configuration', () => {
  it('keeps the model and its provider, bounds retries, turns bundled skills off and drops the rest', () => {
    const user = {
      model: 'gpt-5',
      model_provider: 'fake',
      model_providers: { fake: { base_url: 'http://127.0.0.1:1/v1', wire_api: 'responses', stream_max_retries: 9 } },
      mcp_servers: { leak: { command: 'leak' } },
      profiles: { other: {} },
    };
    expect(isolatedCodexConfig(user, 30_000)).toEqual({
      model: 'gpt-5',
      model_provider: 'fake',
      model_providers: {
        fake: {
          base_url: 'http://127.0.0.1:1/v1',
          wire_api: 'responses',
          request_max_retries: 2,
          stream_max_retries: 9,
          stream_idle_timeout_ms: 30_000,
        },
      },
      skills: { bundled: { enabled: false } },
    });
  });
});
