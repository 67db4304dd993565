import * as z from 'zod';
import { benchmarkSchema } from './benchmark.js';
import { calibrationSchema } from './calibration.js';
import { checkReportSchema } from './check.js';
import { skevalConfigSchema } from './config-file.js';
import { evalsFileSchema } from './evals-file.js';
import { feedbackSchema } from './feedback.js';
import { gradingSchema } from './grading.js';
import { matrixBenchmarkSchema, matrixFileSchema, matrixManifestSchema } from './matrix.js';
import { evalMetadataSchema, runSummarySchema } from './run-files.js';
import { triggersFileSchema, triggersHistorySchema } from './triggers.js';

/** The JSON Schema files shipped in `json-schema/`, by file name. */
export const jsonSchemaSources = {
  'evals.schema.json': { schema: evalsFileSchema, io: 'input' },
  'grading.schema.json': { schema: gradingSchema, io: 'output' },
  'benchmark.schema.json': { schema: benchmarkSchema, io: 'output' },
  'eval-metadata.schema.json': { schema: evalMetadataSchema, io: 'output' },
  'feedback.schema.json': { schema: feedbackSchema, io: 'output' },
  'triggers.schema.json': { schema: triggersFileSchema, io: 'output' },
  'triggers-history.schema.json': { schema: triggersHistorySchema, io: 'output' },
  'summary.schema.json': { schema: runSummarySchema, io: 'output' },
  'calibration.schema.json': { schema: calibrationSchema, io: 'output' },
  'skeval-config.schema.json': { schema: skevalConfigSchema, io: 'input' },
  'check.schema.json': { schema: checkReportSchema, io: 'output' },
  'matrix-file.schema.json': { schema: matrixFileSchema, io: 'input' },
  'matrix.schema.json': { schema: matrixManifestSchema, io: 'output' },
  'matrix-benchmark.schema.json': { schema: matrixBenchmarkSchema, io: 'output' },
} as const;

export type JsonSchemaFileName = keyof typeof jsonSchemaSources;

/**
 * Builds the JSON Schema (draft 2020-12) for one shipped file. Checks zod cannot express
 * (path containment, regex compilation, unique ids) are left to the loader.
 */
export function buildJsonSchema(fileName: JsonSchemaFileName): Record<string, unknown> {
  const { schema, io } = jsonSchemaSources[fileName];
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return generated;
}

/** The text of a shipped JSON Schema file, exactly as committed. */
export function renderJsonSchema(fileName: JsonSchemaFileName): string {
  return `${JSON.stringify(buildJsonSchema(fileName), null, 2)}\n`;
}
