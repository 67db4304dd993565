import { basename, dirname, resolve } from 'node:path';
import type { CliIo } from './io.js';
import { readConfigFile } from './option-groups/config-file.js';

/** What resolving a run name needs from @skeval/core, loaded by the command. */
interface RunNameReaders {
  resolveRunName: typeof import('@skeval/core/internal').resolveRunName;
  parseRunName: typeof import('@skeval/core/internal').parseRunName;
  findConfigFile: typeof import('@skeval/core/internal').findConfigFile;
  loadConfigFile: typeof import('@skeval/core/internal').loadConfigFile;
}

/**
 * A run folder named `latest` or `latest~N` (alone, or at the end of a path), counted where the
 * runs of that skill go: `--output-dir` when given, else the `outputDir` of the config file that
 * applies to the skill (read from the file's folder), else `<skill>/evals-runs/`, as `skeval run`
 * chose. Any other value is returned as it is, and no config file is read for it.
 */
export async function resolveRunNameAsRun(options: {
  core: RunNameReaders;
  value: string;
  io: CliIo;
  /** The skill a bare `latest` means (`--skill-path`). @default the current folder */
  skillPath?: string;
  configFlag?: string;
  outputDir?: string;
  label?: string;
}): Promise<string> {
  const { core, value, io } = options;
  if (core.parseRunName(basename(value)) === undefined) return value;
  const skillPath = basename(value) === value ? (options.skillPath ?? '.') : dirname(value);
  const outputDir =
    options.outputDir ??
    (await readConfigFile({ core, path: skillPath, configFlag: options.configFlag, io }).then((loaded) =>
      loaded?.config.outputDir ? resolve(dirname(loaded.file), loaded.config.outputDir) : undefined,
    ));
  return core.resolveRunName(value, {
    cwd: io.cwd,
    ...(options.skillPath ? { skillPath: options.skillPath } : {}),
    ...(outputDir ? { outputDir } : {}),
    ...(options.label ? { label: options.label } : {}),
  });
}
