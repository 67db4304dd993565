import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { commandTable } from './command-table.js';
import { processIo } from './io.js';

const cliDir = fileURLToPath(new URL('..', import.meta.url));
const recordLoads = fileURLToPath(new URL('./__fixtures__/record-loads.mjs', import.meta.url));

/** The files of the package's dist/ that `skeval <args>` loads, relative to dist/. */
async function loadedBy(args: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'skeval-loads-'));
  try {
    const record = join(dir, 'loads.txt');
    await promisify(execFile)(process.execPath, ['--import', recordLoads, join(cliDir, 'dist/cli.js'), ...args], {
      cwd: join(cliDir, '../..'),
      env: { ...process.env, RECORD_LOADS: record },
    });
    const dist = new URL('dist/', `file://${cliDir}`).href;
    return (await readFile(record, 'utf8'))
      .split('\n')
      .filter((url) => url.startsWith(dist))
      .map((url) => url.slice(dist.length));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the table of commands', () => {
  it.each(commandTable.map((entry) => [entry.name, entry] as const))(
    'lists %s with the arguments its module declares',
    async (name, entry) => {
      const command = new Command(name);
      (await entry.load())(command, { io: processIo(), setExitCode: () => undefined });
      const declared = command.registeredArguments.map((argument) => {
        const text = `${argument.name()}${argument.variadic ? '...' : ''}`;
        return argument.required ? `<${text}>` : `[${text}]`;
      });
      expect(declared.join(' ')).toBe(entry.arguments);
    },
    30_000,
  );

  it('has a built file for every command (the lists in tsup.config.ts)', async () => {
    const built = (await readdir(join(cliDir, 'dist/commands'))).filter((file) => file.endsWith('.js'));
    expect(built.sort()).toEqual(commandTable.map((entry) => `${entry.name}.js`).sort());
  });

  it('leaves every command file unread for --version and --help, and reads only its own for a command', async () => {
    expect(await loadedBy(['--version'])).toEqual(['cli.js']);
    expect(await loadedBy(['--help'])).toEqual(['cli.js']);
    for (const [args, own] of [
      [['validate', 'examples'], 'commands/validate.js'],
      [['help', 'brief'], 'commands/brief.js'],
    ] as const) {
      const loaded = await loadedBy([...args]);
      // A quick command may load the chunks split off its own build (its action, yaml on first use); never another command.
      expect(loaded[0]).toBe('cli.js');
      expect(loaded.filter((file) => file.startsWith('commands/'))).toEqual([own]);
    }
  }, 60_000);
});
