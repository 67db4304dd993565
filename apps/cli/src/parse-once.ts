// Imported first by the commands that parse a few files and exit (validate, brief, transpile,
// import), so zod's one-shot setting is in place before any schema is built: zod reads it when a
// schema is made, and a schema made earlier still compiles its fast path on its first parse. The
// entry holds zod alone, so nothing of the schemas runs before the call.
import { parseOnceWithoutCompiling } from '@skeval/schema/one-shot';

parseOnceWithoutCompiling();
