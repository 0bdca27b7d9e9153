import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { HierarchyParseError } from '../../ui/hierarchy-parse-error.js';
import { parseHierarchy } from '../../ui/parse-hierarchy.js';
import type { UiTree } from '../../ui/ui-tree.js';
import type { CliIo } from '../cli-io.js';

/**
 * Reads and parses a screen file for `diff` / `check` (with the package / activity the
 * observation reported, when given). Returns the tree, or undefined
 * after printing why not (unreadable file, hierarchy parse error with position) on stderr.
 */
export async function readScreen(file: string, io: CliIo, command: string, observation: { packageName?: string; activity?: string } = {}): Promise<UiTree | undefined> {
  const resolved = path.resolve(io.cwd, file);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(resolved);
  } catch (error) {
    io.stderr(`senseact ${command}: ${file}: cannot read (${error instanceof Error ? error.message : String(error)}); pass a UI dump file (Appium page source, uiautomator dump XML or DroidBot JSON).\n`);
    return undefined;
  }
  try {
    return parseHierarchy(bytes, { sourceName: file, ...observation });
  } catch (error) {
    if (!HierarchyParseError.isInstance(error)) throw error;
    io.stderr(`senseact ${command}: ${error.message}\n`);
    return undefined;
  }
}
