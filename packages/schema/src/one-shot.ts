// zod's core alone: the dispatcher bundles this entry, and zod's main entry would bring its
// English messages and their set-up along.
import { config } from 'zod/v4/core';

/**
 * For a command that parses a few files once and exits (`skeval validate`, `brief`, `transpile`,
 * `import`): zod checks objects without compiling a fast path for each schema first, a compile
 * that costs such a command more than it saves. Results are the same. zod reads the setting when
 * a schema is built, so it is called before any schema module runs: this file is its own entry
 * (`@skeval/schema/one-shot`, zod's core alone behind it), which the `skeval` dispatcher imports
 * before it loads such a command.
 */
export function parseOnceWithoutCompiling(): void {
  config({ jitless: true });
}
