import type { GraderResult } from '@skeval/schema';
import { SkevalError } from '@skeval/schema';
import { findGraderFile, listGraderFiles, runCustomGrader } from '@skeval/scripts';
import type { RunAssertOptions } from './run-assert.js';

export async function runCustom(options: RunAssertOptions): Promise<GraderResult> {
  const { name } = options;
  const cwd = options.skillDir ?? options.cwd ?? process.cwd();
  const file = findGraderFile(name, cwd);
  if (!file) {
    const custom = listGraderFiles(cwd).map((grader) => grader.name);
    throw new SkevalError({
      code: 'usage',
      message: `no grader named \`${name}\`: no .skeval/graders/${name}.{ts,mts,js,mjs} (or .agentv/graders/) in ${cwd} or above. Custom graders found: ${custom.join(', ') || 'none'}. Built-in graders are named file-exists, regex-match, json-valid or start with output-, workspace-, behavior-, safety-.`,
    });
  }
  return runCustomGrader({
    file,
    timeoutMs: options.timeoutMs ?? 30_000,
    payload: {
      output: options.output,
      input: options.input ?? '',
      ...(options.expectedOutput === undefined ? {} : { expected_output: options.expectedOutput }),
      ...(options.workspacePath === undefined ? {} : { workspace_path: options.workspacePath }),
      ...(options.trace ? { trace: options.trace } : {}),
      config: options.config ?? {},
    },
  });
}
