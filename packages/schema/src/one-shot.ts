import * as z from 'zod';

/**
 * For a command that parses a few files once and exits (`skeval validate`, `brief`, `transpile`,
 * `import`): zod checks objects without compiling a fast path for each schema first, a compile
 * that costs such a command more than it saves. Results are the same; call it before the first
 * parse.
 */
export function parseOnceWithoutCompiling(): void {
  z.config({ jitless: true });
}
