import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolCall } from '@skeval/schema';
import picomatch from 'picomatch';
import { shellReadPaths } from './codex/shell-reads.js';

/** An installed skill: its name and the absolute path of its folder. */
interface SkillPlace {
  name: string;
  path: string;
}

/**
 * Names of the installed skills whose own `SKILL.md` some call *read*: a read tool (Claude
 * Code's `Read`, Pi's `read`, a Codex shell read) of that file, a shell command that prints it
 * (`cat`, `sed -n`, `head`, … after any `cd`, or a glob the shell expands to it), Claude Code's
 * `Skill` tool or a `SlashCommand` naming exactly that skill. Never a write, an edit, a listing,
 * a search, nor another skill whose name contains this one (`xlsx-pro`, `myxlsx`).
 */
export function skillsReadIn(
  calls: readonly ToolCall[],
  skills: readonly SkillPlace[],
  workspaceDir: string,
): string[] {
  return skills
    .filter((skill) => calls.some((call) => callReadsSkill(call, skill, workspaceDir)))
    .map(({ name }) => name);
}

function callReadsSkill(call: ToolCall, skill: SkillPlace, workspaceDir: string): boolean {
  if (call.kind === 'skill') return namesSkill(call.arguments.skill ?? call.arguments.command, skill.name);
  if (/^slashcommand$/i.test(call.name)) return namesSkill(slashCommandName(call.arguments.command), skill.name);
  const paths = readPaths(call);
  return paths.some((path) => isSkillFile(path, skill, workspaceDir));
}

/** The paths a call read: a read tool's paths, or what its shell command prints. */
function readPaths(call: ToolCall): string[] {
  if (call.kind === 'read') return call.paths ?? [];
  if (call.kind === 'shell' && call.command !== undefined) return shellReadPaths(call.command);
  return [];
}

/** `xlsx` or a plugin's `plugin:xlsx`, exactly. */
function namesSkill(value: unknown, name: string): boolean {
  if (typeof value !== 'string') return false;
  const named = value.trim();
  return named === name || named.endsWith(`:${name}`);
}

/** `/xlsx some arguments` → `xlsx`. */
function slashCommandName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /^\/?([^\s/]+)/.exec(value.trim())?.[1];
}

/**
 * Whether a path (as the agent wrote it, maybe a glob) is this skill's `SKILL.md`: the installed
 * copy's own file, or, for a path outside the workspace (the agent's view of its skills folder),
 * a file `<name>/SKILL.md` in a folder named exactly like the skill.
 */
function isSkillFile(written: string, skill: SkillPlace, workspaceDir: string): boolean {
  const skillFile = join(skill.path, 'SKILL.md');
  const path = written.startsWith('~') ? written : resolve(workspaceDir || '/', written);
  const glob = picomatch.scan(path).isGlob;
  if (glob ? picomatch(path, { dot: true })(skillFile) : path === skillFile) return true;
  if (isInside(path, workspaceDir)) return false;
  const [folder, file] = lastSegments(path);
  if (folder === undefined || file === undefined) return false;
  if (!glob) return folder === skill.name && file === 'SKILL.md';
  return picomatch(folder, { dot: true })(skill.name) && picomatch(file)('SKILL.md');
}

function isInside(path: string, folder: string): boolean {
  if (!folder || !isAbsolute(path)) return false;
  const inside = relative(folder, path);
  return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside);
}

function lastSegments(path: string): [string | undefined, string | undefined] {
  const segments = path.split(/[/\\]/).filter(Boolean);
  return [segments.at(-2), segments.at(-1)];
}
