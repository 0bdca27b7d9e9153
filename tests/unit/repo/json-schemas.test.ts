// schemas/*.schema.json (for editor completion of device profiles and task files) are
// generated from the zod schemas the loaders use, and must not drift from them.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemaFiles } from '../../../scripts/generate-json-schemas.js';

const schemasDir = path.resolve(import.meta.dirname, '../../../schemas');

describe('the published JSON Schemas', () => {
  const generated = jsonSchemaFiles();

  it('are what the zod schemas generate (run npx tsx scripts/generate-json-schemas.ts when this fails)', () => {
    expect(readdirSync(schemasDir).sort()).toEqual(Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated)) expect(readFileSync(path.join(schemasDir, name), 'utf8'), name).toBe(text);
  });

  it('describe both device kinds and the task fields', () => {
    const device = JSON.parse(generated['device-profile.schema.json']!) as { oneOf: { properties: { kind: { const: string } } }[] };
    expect(device.oneOf.map((branch) => branch.properties.kind.const)).toEqual(['sim', 'appium']);
    const taskFile = JSON.parse(generated['task-file.schema.json']!) as { properties: { tasks: { items: { required: string[]; additionalProperties: boolean } } } };
    expect(taskFile.properties.tasks.items.required).toEqual(expect.arrayContaining(['id', 'app', 'instruction', 'allowedPackages', 'stepBudget']));
    // A task of your own may leave out where it comes from and how hard it is.
    expect(taskFile.properties.tasks.items.required).not.toContain('source');
    expect(taskFile.properties.tasks.items.required).not.toContain('difficulty');
    // Strict objects: a misspelt field is flagged in the editor as the loader rejects it.
    expect(taskFile.properties.tasks.items.additionalProperties).toBe(false);
  });

  it('are named by every shipped device profile for editors (yaml-language-server)', () => {
    const devicesDir = path.resolve(schemasDir, '../devices');
    for (const file of readdirSync(devicesDir).filter((name) => name.endsWith('.yaml'))) {
      expect(readFileSync(path.join(devicesDir, file), 'utf8').split('\n')[0], file).toBe('# yaml-language-server: $schema=../schemas/device-profile.schema.json');
    }
  });
});
