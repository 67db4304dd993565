import * as z from 'zod';

/** `sha256:<64 hex digits>`: a digest Skeval records of files it wrote. */
export const sha256Schema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be `sha256:` and 64 hex digits');
