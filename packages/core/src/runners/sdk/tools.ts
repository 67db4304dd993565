import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { ModelTool } from '@skeval/judge';
import { createWorkspaceReader, explainUnsafeWorkspacePath, listFiles } from '@skeval/scripts/internal';
import type { RunnerContext } from '../types.js';

/** The tools of the built-in agent, every one confined to the workspace. */
export const sdkTools: ModelTool[] = [
  {
    name: 'read_file',
    description: 'Read a text file in the workspace.',
    inputSchema: object({ path: text('Path relative to the workspace.') }, ['path']),
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a file in the workspace.',
    inputSchema: object({ path: text('Path relative to the workspace.'), content: text('The whole new content.') }, [
      'path',
      'content',
    ]),
  },
  {
    name: 'edit_file',
    description: 'Replace one exact occurrence of a text in a workspace file.',
    inputSchema: object(
      {
        path: text('Path relative to the workspace.'),
        old_string: text('The exact text to replace; it must occur once.'),
        new_string: text('The replacement.'),
      },
      ['path', 'old_string', 'new_string'],
    ),
  },
  {
    name: 'list_files',
    description: 'List the files under a folder of the workspace.',
    inputSchema: object({ path: text('Folder relative to the workspace (default: the workspace).') }, []),
  },
  {
    name: 'run_command',
    description: 'Run a bash command in the workspace (time-limited).',
    inputSchema: object({ command: text('The bash command.') }, ['command']),
  },
];

function object(properties: Record<string, unknown>, required: string[]) {
  return { type: 'object', properties, required, additionalProperties: false };
}
function text(description: string) {
  return { type: 'string', description };
}

export interface ToolOutcome {
  output: string;
  isError: boolean;
  exitCode?: number | null;
}

/** Runs one tool call of the built-in agent. */
export async function runSdkTool(
  name: string,
  args: Record<string, unknown>,
  context: { workspaceDir: string; commandTimeoutMs: number; exec: RunnerContext['exec'] },
): Promise<ToolOutcome> {
  const path = typeof args.path === 'string' ? args.path : name === 'list_files' ? '.' : undefined;
  try {
    switch (name) {
      case 'read_file': {
        const file = createWorkspaceReader(context.workspaceDir).readText(required(path, 'path'));
        if (file.status === 'text')
          return {
            output: file.truncated ? `${file.text}\n[… the file is longer; read stopped at the cap]` : file.text,
            isError: false,
          };
        return {
          output:
            file.status === 'missing'
              ? `no such file: ${file.path}`
              : 'reason' in file
                ? file.reason
                : `${file.path} is a ${file.status}`,
          isError: true,
        };
      }
      case 'write_file': {
        const target = await writableTarget(context.workspaceDir, required(path, 'path'));
        await writeFile(target, String(args.content ?? ''));
        return { output: `wrote ${Buffer.byteLength(String(args.content ?? ''))} bytes to ${path}`, isError: false };
      }
      case 'edit_file': {
        const target = await writableTarget(context.workspaceDir, required(path, 'path'));
        const before = await readFile(target, 'utf8');
        const oldString = String(args.old_string ?? '');
        const count = oldString ? before.split(oldString).length - 1 : 0;
        if (count !== 1)
          return { output: `old_string occurs ${count} times in ${path}; it must occur exactly once`, isError: true };
        await writeFile(target, before.replace(oldString, String(args.new_string ?? '')));
        return { output: `edited ${path}`, isError: false };
      }
      case 'list_files': {
        const folder = required(path, 'path');
        const unsafe = explainUnsafeWorkspacePath(folder === '.' ? 'x' : folder);
        if (unsafe) return { output: unsafe, isError: true };
        const { files, truncated } = listFiles(join(context.workspaceDir, folder));
        return {
          output: `${files.join('\n')}${truncated ? '\n[… more files not listed]' : ''}` || '(empty)',
          isError: false,
        };
      }
      case 'run_command': {
        // The command runs in the case run's sandbox, like any agent's program.
        const command = required(typeof args.command === 'string' ? args.command : undefined, 'command');
        const outcome = await context.exec(
          { file: 'bash', args: ['-c', command] },
          { timeoutMs: context.commandTimeoutMs, maxOutputBytes: 1024 * 1024 },
        );
        const output = `${outcome.stdout}${outcome.stderr ? `\n[stderr]\n${outcome.stderr}` : ''}${outcome.timedOut ? `\n[stopped after ${context.commandTimeoutMs} ms]` : ''}`;
        return { output, isError: outcome.exitCode !== 0, exitCode: outcome.exitCode };
      }
      default:
        return { output: `no tool named ${name}`, isError: true };
    }
  } catch (error) {
    return { output: error instanceof Error ? error.message : String(error), isError: true };
  }
}

function required(value: string | undefined, field: string): string {
  if (!value) throw new Error(`\`${field}\` is required`);
  return value;
}

/** The absolute path to write, refusing anything that leaves the workspace (through `..`, an absolute path or a symlink). */
async function writableTarget(workspaceDir: string, path: string): Promise<string> {
  const unsafe = explainUnsafeWorkspacePath(path);
  if (unsafe) throw new Error(unsafe);
  const root = await realpath(workspaceDir);
  const target = join(root, path);
  await mkdir(dirname(target), { recursive: true });
  const parent = await realpath(dirname(target));
  if (parent !== root && !parent.startsWith(root + sep)) throw new Error(`Path escapes workspace: ${path}`);
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new Error(`Path escapes workspace: ${path} is a symlink`);
  return target;
}
