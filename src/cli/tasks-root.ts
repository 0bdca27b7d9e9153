import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../device/appium-server.js';

/**
 * Where a suite name such as `sim` is looked up: `tasks/` in the working directory when
 * it has that suite (a project's own suites, or the repository), else the suites shipped
 * with the package (an installed senseact run from an empty project). A path is resolved
 * by `loadSuite` itself, so the working directory's `tasks/` is returned for it.
 */
export function tasksRootFor(cwd: string, suite: string): string {
  const own = path.resolve(cwd, 'tasks');
  if (!/^[\w-]+$/.test(suite) || isDirectory(path.join(own, suite))) return own;
  const shipped = path.join(repoRoot(), 'tasks');
  return isDirectory(path.join(shipped, suite)) ? shipped : own;
}

function isDirectory(folder: string): boolean {
  return existsSync(folder) && statSync(folder).isDirectory();
}
