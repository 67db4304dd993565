import type { Trace } from '@skeval/schema';
import { parseClaudeCodeStream } from '../runners/claude-code/parse-stream.js';
import { parseCodexStream } from '../runners/codex/parse-stream.js';
import { parseCommandOutput } from '../runners/command/runner.js';
import { parsePiStream } from '../runners/pi/parse-stream.js';

type StreamParser = (stdout: string, workspaceDir: string, skills: Array<{ name: string; path: string }>) => Trace;

/** The stream readers of the agents that print events, by runner name. */
const parsers: Record<string, StreamParser> = {
  'claude-code': (stdout, workspaceDir, skills) => parseClaudeCodeStream(stdout, workspaceDir, 0, skills).trace,
  codex: (stdout, workspaceDir, skills) => parseCodexStream(stdout, workspaceDir, 0, skills).trace,
  pi: (stdout, workspaceDir, skills) => parsePiStream(stdout, workspaceDir, 0, skills).trace,
  command: (stdout, workspaceDir, skills) => parseCommandOutput(stdout, workspaceDir, 0, skills).trace,
};

/**
 * Reads the complete lines an agent has printed so far into a trace, as its runner will read
 * the whole stream; undefined for an agent whose events Skeval cannot see while it runs.
 */
export function partialTraceReader(
  runnerName: string,
): ((stdout: string, workspaceDir: string, skills: Array<{ name: string; path: string }>) => Trace) | undefined {
  const parse = parsers[runnerName];
  if (!parse) return undefined;
  return (stdout, workspaceDir, skills) => parse(stdout.slice(0, stdout.lastIndexOf('\n') + 1), workspaceDir, skills);
}
