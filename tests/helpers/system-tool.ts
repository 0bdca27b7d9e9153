// Tests that need a program of the machine (Chromium for the HTML report, Java for the
// Selenium Grid) run when it is there. Without it they skip and print one line that says
// what was skipped, why and how to run it, so `npm test` passes on a machine with only
// Node. CI (.ci/run) installs the programs and sets the tool's strict variable
// (SENSEACT_REQUIRE_BROWSER=1, SENSEACT_REQUIRE_JAVA=1, SENSEACT_REQUIRE_SQLITE=1): there a missing program fails the
// file instead, so CI can never skip it silently.
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'vitest';
import { checkJava } from '../../src/device/selenium-grid.js';

/** Whether the program was found: its path, or why not. */
export type ToolCheck = { ok: true; path: string } | { ok: false; reason: string };

/** A program some tests need, how to find it and how to get it. */
export type SystemTool = {
  /** The program in words ("Chromium"). */
  what: string;
  /** The variable that turns a skip into a failure (set by .ci/run). */
  strictVariable: string;
  /** How a user installs it. */
  install: string;
  check: (env: Readonly<Record<string, string | undefined>>) => ToolCheck;
};

function onPath(names: readonly string[], env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const directory of (env['PATH'] ?? '').split(path.delimiter).filter((entry) => entry !== '')) {
    for (const name of names) {
      const candidate = path.join(directory, name);
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
  }
  return undefined;
}

const chromiumNames = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** Chromium (or Chrome): SENSEACT_CHROMIUM names the binary, else the first of its usual names on PATH. */
export const chromiumTool: SystemTool = {
  what: 'Chromium',
  strictVariable: 'SENSEACT_REQUIRE_BROWSER',
  install: 'apt-get install chromium (Debian), or set SENSEACT_CHROMIUM to a Chromium or Chrome binary',
  check: (env) => {
    const named = env['SENSEACT_CHROMIUM'];
    if (named !== undefined && named !== '') return existsSync(named) ? { ok: true, path: named } : { ok: false, reason: `SENSEACT_CHROMIUM=${named} does not exist` };
    const found = onPath(chromiumNames, env);
    return found !== undefined ? { ok: true, path: found } : { ok: false, reason: `none of ${chromiumNames.join(', ')} is on PATH` };
  },
};

/** A Java 17+ runtime (JAVA_HOME, else `java` on PATH), as the local grid looks for it. */
export const javaTool: SystemTool = {
  what: 'Java 17+',
  strictVariable: 'SENSEACT_REQUIRE_JAVA',
  install: 'apt-get install openjdk-17-jre-headless (Debian), or set JAVA_HOME',
  check: (env) => {
    const java = checkJava(env);
    return java.ok ? { ok: true, path: java.java } : { ok: false, reason: java.reason };
  },
};

/** The sqlite3 shell, to run the AndroidWorld suite's app-database SQL on the host (tests only). */
export const sqliteTool: SystemTool = {
  what: 'sqlite3',
  strictVariable: 'SENSEACT_REQUIRE_SQLITE',
  install: 'apt-get install sqlite3 (Debian)',
  check: (env) => {
    const found = onPath(['sqlite3'], env);
    return found !== undefined ? { ok: true, path: found } : { ok: false, reason: 'sqlite3 is not on PATH' };
  },
};

/**
 * The tool's path when it is found. Without it: `undefined`, and a test named `title` that
 * fails when the tool's strict variable is 1, else one that is skipped beside a printed line
 * naming the file, the reason and how to run it.
 */
export function toolOrSkip(tool: SystemTool, file: string, title: string, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const found = tool.check(env);
  if (found.ok) return found.path;
  const relative = path.relative(process.cwd(), file);
  const message = `${relative} needs ${tool.what}: ${found.reason}`;
  if (env[tool.strictVariable] === '1') {
    describe(title, () => {
      it(`needs ${tool.what} (${tool.strictVariable}=1)`, () => {
        throw new Error(`${message}. ${tool.strictVariable}=1 says it must run here: install it (${tool.install}).`);
      });
    });
    return undefined;
  }
  console.warn(`SKIPPED ${message}. To run it: ${tool.install}, then npx vitest run ${relative}`);
  describe.skip(title, () => {
    it(`skipped: ${found.reason}`, () => undefined);
  });
  return undefined;
}

/** `describe(title, body)` with the tool's path when it is found, else what `toolOrSkip` does. */
export function describeWithTool(tool: SystemTool, file: string, title: string, body: (toolPath: string) => void, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const found = toolOrSkip(tool, file, title, env);
  if (found !== undefined) describe(title, () => body(found));
}
