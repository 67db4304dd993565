// Writes the JSON Schema files shipped in json-schema/ from the zod schemas.
// A test fails when the committed files differ from what this would write.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type JsonSchemaFileName, jsonSchemaSources, renderJsonSchema } from '../src/json-schema.js';

for (const fileName of Object.keys(jsonSchemaSources) as JsonSchemaFileName[]) {
  const target = fileURLToPath(new URL(`../json-schema/${fileName}`, import.meta.url));
  writeFileSync(target, renderJsonSchema(fileName));
  console.log(`wrote json-schema/${fileName}`);
}
