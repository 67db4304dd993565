// Imported by the table of commands before the module of a command that parses a few files and
// exits (validate, brief, transpile, import), so zod's one-shot setting is in place before any
// schema is built: zod reads it when a schema is made, and a schema made earlier still compiles
// its fast path on its first parse. zod keeps its settings on the global object, so the setting
// made through the dispatcher's copy holds for the command's. The entry holds zod alone.
import { parseOnceWithoutCompiling } from '@skeval/schema/one-shot';

parseOnceWithoutCompiling();
