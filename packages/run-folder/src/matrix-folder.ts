import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type MatrixManifest, matrixManifestSchema, SkevalError } from '@skeval/schema/internal';
import { readJsonArtifact } from './read-artifact.js';

/** The root file of a matrix run folder: its configurations and their run folders. */
export const matrixManifestName = 'matrix.json';

/** One configuration of a matrix run folder, with its run folder's path. */
export interface MatrixFolderConfiguration {
  name: string;
  agent: string;
  model: string | null;
  /** Its run folder: an ordinary run folder of one agent and model. */
  runDir: string;
}

/** A matrix run folder read back: its manifest and each configuration's run folder. */
export interface MatrixFolder {
  dir: string;
  manifest: MatrixManifest;
  configurations: MatrixFolderConfiguration[];
}

/** Whether a folder is the root of a matrix run (it holds `matrix.json`). */
export function isMatrixFolder(dir: string): boolean {
  return existsSync(join(dir, matrixManifestName));
}

/**
 * Reads `matrix.json` and checks that each configuration's folder is one folder name inside
 * the matrix run folder; `undefined` when the folder is not a matrix run. Throws when the file
 * is there and cannot be read, since every reader of the folder would then be wrong.
 */
export async function readMatrixFolder(dir: string): Promise<MatrixFolder | undefined> {
  // A benchmark.json or other file given where a run folder may be: not a matrix run.
  if (!isMatrixFolder(dir)) return undefined;
  const read = await readJsonArtifact(join(dir, matrixManifestName), matrixManifestSchema, matrixManifestName);
  if (read.status === 'absent') return undefined;
  if (read.status === 'invalid') {
    throw new SkevalError({
      code: 'invalid_input',
      message: `${join(dir, matrixManifestName)}: ${read.detail}; a matrix run folder's matrix.json is written by skeval run --matrix, so run it again or restore the file`,
    });
  }
  const configurations = read.value.configurations.map((configuration, index) => {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(configuration.folder) || configuration.folder.includes('..')) {
      throw new SkevalError({
        code: 'invalid_input',
        message: `${join(dir, matrixManifestName)}: configurations[${index}].folder ${JSON.stringify(configuration.folder)} is not one folder name inside the matrix run folder; each configuration's folder is its name`,
      });
    }
    return {
      name: configuration.name,
      agent: configuration.agent,
      model: configuration.model,
      runDir: join(dir, configuration.folder),
    };
  });
  return { dir, manifest: read.value, configurations };
}
