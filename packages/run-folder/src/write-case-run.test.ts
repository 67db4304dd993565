import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Grading, Trace } from '@skeval/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildContextManifest, emptyTiming } from './case-run-records.js';
import { executionMetricsOf } from './execution-metrics.js';
import { writeCaseRun } from './write-case-run.js';

let root: string;
let workspaceDir: string;
let caseDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skeval-write-case-run-'));
  workspaceDir = join(root, 'workspace');
  caseDir = join(root, 'run', 'eval-1');
  mkdirSync(workspaceDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const trace: Trace = {
  version: 1,
  agent: 'command',
  messages: [{ role: 'assistant', text: 'done' }],
  tool_calls: [],
  usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  final_text: 'done',
  duration_ms: 1,
};
const grading: Grading = {
  case_id: '1',
  assertion_results: [],
  expectations: [],
  summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0, pass_rate: null },
};
const contextManifest = buildContextManifest(
  {
    arm: 'with_skill',
    runNumber: 1,
    contextMode: 'isolated',
    agent: 'command',
    model: null,
    skillsDir: null,
    evalCase: { prompt: 'Say done.', files: [] },
  },
  { skills: [], skillsRead: [], environment: [], tools: [] },
);

function write(outputs: string[]) {
  return writeCaseRun({
    caseDir,
    finalText: 'done',
    trace,
    grading,
    timing: emptyTiming,
    contextManifest,
    workspaceDir,
    outputs,
  });
}

describe('writing a case run', () => {
  it('counts the text copied into outputs/ as reading the folder back counts it', async () => {
    // Eight characters, one of them outside the BMP (two UTF-16 units, one character).
    writeFileSync(join(workspaceDir, 'note.md'), 'héllo 😀\n');
    writeFileSync(join(workspaceDir, 'data.bin'), Buffer.from([1, 0, 2]));
    symlinkSync('note.md', join(workspaceDir, 'link'));
    await write(['data.bin', 'link', 'note.md']);
    const written = JSON.parse(readFileSync(join(caseDir, 'grading.json'), 'utf8'));
    expect(written.execution_metrics.output_chars).toBe(8);
    const reread = await executionMetricsOf({ trace, outputsDir: join(caseDir, 'outputs'), agentFailed: false });
    expect(reread.output_chars).toBe(8);
  });

  it('writes the six artifacts and no temporary file beside them', async () => {
    await write([]);
    expect(readdirSync(caseDir).sort()).toEqual([
      'assistant.md',
      'context-manifest.json',
      'grading.json',
      'outputs',
      'timing.json',
      'tool-summary.json',
      'trace.json',
    ]);
  });

  it('redoes a case folder an interrupted run left, leaving none of its files', async () => {
    mkdirSync(join(caseDir, 'outputs'), { recursive: true });
    writeFileSync(join(caseDir, 'outputs', 'stale.md'), 'from before\n');
    writeFileSync(join(caseDir, 'trace.json.123.abc.tmp'), '{');
    await write([]);
    expect(readdirSync(join(caseDir, 'outputs'))).toEqual([]);
    expect(readdirSync(caseDir)).not.toContain('trace.json.123.abc.tmp');
  });
});
