import * as z from 'zod';
import { lazyValues } from './lazy.js';
import { relativePathSchema } from './relative-path.js';

/** A `seeded` setup's sources, built when first read. */
export const setupParts = lazyValues({
  seededSource: () =>
    z.looseObject({
      from: relativePathSchema.meta({ description: 'A file or folder in the skill folder.' }),
      to: relativePathSchema
        .optional()
        .meta({ description: 'Where it lands in the workspace (default: the same path).' }),
    }),
});

/** Each `setup` kind's schema, built when first read (the loader checks one kind at a time). */
export const setupSchemas = lazyValues({
  empty: () => z.looseObject({ kind: z.literal('empty') }),
  seeded: () =>
    z.looseObject({
      kind: z.literal('seeded'),
      sources: z
        .array(setupParts.seededSource)
        .min(1, { error: '`seeded` setup needs at least one entry in `sources`' }),
      mountMode: z
        .enum(['preserve-path', 'flatten-contents'])
        .optional()
        .meta({ description: '@default "preserve-path"' }),
    }),
  fixture: () =>
    z.looseObject({
      kind: z.literal('fixture'),
      path: relativePathSchema.meta({ description: 'A prepared folder in the skill folder, copied as the workspace.' }),
      git: z
        .union([
          z.boolean(),
          z.looseObject({ branch: z.string().min(1).optional(), message: z.string().min(1).optional() }),
        ])
        .optional()
        .meta({
          description: 'Make the workspace a git repository with the fixture committed (optionally on `branch`).',
        }),
    }),
});
export type SetupKind = keyof typeof setupSchemas;

/** Whether a value names a way to prepare the workspace (`empty`, `seeded` or `fixture`). */
export function isSetupKind(value: unknown): value is SetupKind {
  return typeof value === 'string' && Object.hasOwn(setupSchemas, value);
}

export const setupKinds: SetupKind[] = Object.keys(setupSchemas).filter(isSetupKind);
