import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillFileNames } from './skill-library.js';
import { asPathKindError } from '../util/path-kind-error.js';

/** What a skills folder held when a benchmark used it: its path, a digest of its skill files, and each file's own hash. */
export interface SkillsDigest {
  readonly dir: string;
  /** sha256 over the sorted `name sha256` lines of the skill files (hex, first 16 digits). */
  readonly digest: string;
  /** Each skill file (`*.yaml`, by name) and the sha256 of its bytes (hex, first 16 digits). */
  readonly files: Readonly<Record<string, string>>;
}

function sha(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * The content digest of a skills folder: the skill files `loadSkills` reads (`*.yaml`),
 * each hashed by its bytes, and one digest over all of them by name. Any edit, added or
 * removed skill changes the digest; the files' times do not. Throws `SkillError` when the
 * path is not a folder.
 */
export function skillsDigest(dir: string): SkillsDigest {
  const files: Record<string, string> = {};
  for (const name of skillFileNames(dir)) {
    try {
      files[name] = sha(readFileSync(join(dir, name)));
    } catch (error) {
      throw asPathKindError(error, join(dir, name), 'skill file');
    }
  }
  return { dir, digest: sha(Object.entries(files).map(([name, hash]) => `${name} ${hash}`).join('\n')), files };
}

/** What changed between two digests of a skills folder, by file: `changed a.yaml; added b.yaml; removed c.yaml`. */
export function describeSkillsChange(before: Pick<SkillsDigest, 'files'>, after: Pick<SkillsDigest, 'files'>): string {
  const names = [...new Set([...Object.keys(before.files), ...Object.keys(after.files)])].sort();
  const changed = names.filter((name) => before.files[name] !== undefined && after.files[name] !== undefined && before.files[name] !== after.files[name]);
  const added = names.filter((name) => before.files[name] === undefined);
  const removed = names.filter((name) => after.files[name] === undefined);
  const parts = [
    ...(changed.length > 0 ? [`changed ${changed.join(', ')}`] : []),
    ...(added.length > 0 ? [`added ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : 'no file differs';
}
