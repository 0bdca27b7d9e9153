import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../device/appium-server.js';
import { parseYamlSafely } from '../util/parse-yaml-safely.js';
import { ExportError } from './export-error.js';

/** Where an exported spec runs: an Appium server, its capabilities (placeholders kept) and the settle. */
export interface WdioTarget {
  /** The profile the capabilities come from (name and file). */
  readonly profile: string;
  /** The server URL, possibly with `${VAR}` references. */
  readonly url: string;
  /** W3C capabilities as the profile writes them: `${VAR}` references are kept for the run. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** The profile's `settle.timeoutMs` (default 5000). */
  readonly settleMs: number;
}

/** The simulator's Appium server as `npm run sim:appium` starts it (devices/sim-appium.yaml). */
const simAppiumUrl = 'http://127.0.0.1:4723';

/**
 * The WebdriverIO target of a device profile (`devices/<name>.yaml` or a path), read
 * without interpolating its `${VAR}` references: an `appium` profile gives its URL and
 * capabilities as written; a `sim` profile (the in-process simulator) gives the
 * simulator's own Appium driver (`SenseActSim`, `npm run sim:appium`) with the profile's
 * faults. `extra` capabilities (a task's seed and start state, the app) are merged over.
 * Throws `ExportError` for a missing or malformed profile.
 */
export function wdioTarget(nameOrPath: string, extra: Readonly<Record<string, unknown>>, cwd: string): WdioTarget {
  const isPath = /[\\/]/.test(nameOrPath) || /\.ya?ml$/i.test(nameOrPath);
  const candidates = isPath ? [path.resolve(cwd, nameOrPath)] : [path.join(cwd, 'devices', `${nameOrPath}.yaml`), path.join(repoRoot(), 'devices', `${nameOrPath}.yaml`)];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) throw new ExportError({ message: `no device profile '${nameOrPath}' (looked for ${candidates.join(', ')}); pass --device with a profile name from devices/ or a .yaml path` });
  const yaml = parseYamlSafely(readFileSync(file, 'utf8'));
  if (!yaml.success) throw new ExportError({ message: `${file} is not valid YAML: ${yaml.problems.map((problem) => problem.message).join('; ')}; fix the profile (see devices/sim-appium.yaml)` });
  const data = yaml.value.value as { kind?: unknown; name?: unknown; appium?: { url?: unknown; capabilities?: unknown }; sim?: { faults?: unknown }; settle?: { timeoutMs?: unknown } } | null;
  const settleMs = typeof data?.settle?.timeoutMs === 'number' ? data.settle.timeoutMs : 5000;
  const profile = `${typeof data?.name === 'string' ? data.name : nameOrPath} (${path.relative(cwd, file) || file})`;
  if (data?.kind === 'sim') {
    const faults = data.sim?.faults ?? 'none';
    return { profile, url: simAppiumUrl, capabilities: { platformName: 'Android', 'appium:automationName': 'SenseActSim', 'senseact:faults': faults, ...extra }, settleMs };
  }
  const capabilities = data?.appium?.capabilities;
  if (data?.kind !== 'appium' || typeof data.appium?.url !== 'string' || typeof capabilities !== 'object' || capabilities === null) {
    throw new ExportError({ message: `${file}: expected a device profile with kind: sim, or kind: appium with appium.url and appium.capabilities; fix the profile (see devices/sim-appium.yaml)` });
  }
  return { profile, url: data.appium.url, capabilities: { ...(capabilities as Record<string, unknown>), ...extra }, settleMs };
}
