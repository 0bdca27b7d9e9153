// Writes schemas/*.schema.json, the JSON Schemas of device profiles and task files, from
// the zod schemas that check them (so editors complete and check what the loaders accept).
// Run after changing either schema: npx tsx scripts/generate-json-schemas.ts
// (tests/unit/repo/json-schemas.test.ts fails while the files are stale).
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { deviceProfileSchema } from '../src/device/device-profile.js';
import { taskFileSchema } from '../src/tasks/task-schema.js';

/** The schema files by name under schemas/, as they should read. */
export function jsonSchemaFiles(): Record<string, string> {
  const render = (schema: z.ZodType, title: string, description: string): string => {
    // Input form: what a person writes (defaults optional); refinements and transforms are checked by the loader only.
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    return `${JSON.stringify({ ...json, title, description }, null, 2)}\n`;
  };
  return {
    'device-profile.schema.json': render(deviceProfileSchema, 'SenseAct device profile', 'A device profile (devices/*.yaml), generated from deviceProfileSchema in src/device/device-profile.ts. String values may name environment variables as ${NAME} or ${NAME:-fallback}.'),
    'task-file.schema.json': render(taskFileSchema, 'SenseAct task file', 'A task file (tasks/<suite>/*.yaml), generated from taskFileSchema in src/tasks/task-schema.ts. Predicates and cross-field rules are checked by the loader.'),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const folder = path.resolve(import.meta.dirname, '..', 'schemas');
  for (const [name, text] of Object.entries(jsonSchemaFiles())) {
    writeFileSync(path.join(folder, name), text);
    process.stdout.write(`wrote ${path.join(folder, name)}\n`);
  }
}
