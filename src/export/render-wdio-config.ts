import type { WdioTarget } from './wdio-target.js';

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A TypeScript expression for a profile value: `${VAR}` / `${VAR:-default}` become `env('VAR', 'default')`, read when the test runs. */
export function tsValue(value: unknown, depth = 0): string {
  const pad = '  '.repeat(depth + 1);
  if (typeof value === 'string') return tsString(value);
  if (Array.isArray(value)) return `[${value.map((item) => tsValue(item, depth)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${pad}${JSON.stringify(key)}: ${tsValue(item, depth + 1)},`);
    return entries.length === 0 ? '{}' : `{\n${entries.join('\n')}\n${'  '.repeat(depth)}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function tsString(text: string): string {
  const whole = new RegExp(`^${reference.source}$`).exec(text);
  if (whole) return `env(${JSON.stringify(whole[1])}${whole[2] === undefined ? '' : `, ${JSON.stringify(whole[2])}`})`;
  if (!new RegExp(reference.source).test(text)) return JSON.stringify(text);
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(reference)) {
    parts.push(text.slice(last, match.index).replace(/[`\\]/g, '\\$&'));
    parts.push(`\${env(${JSON.stringify(match[1])}${match[2] === undefined ? '' : `, ${JSON.stringify(match[2])}`})}`);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last).replace(/[`\\]/g, '\\$&'));
  return `\`${parts.join('')}\``;
}

/**
 * A WebdriverIO configuration (`wdio.conf.ts` as the test runner reads it: local runner,
 * Mocha, one spec) for an exported spec: the server and capabilities of the device
 * profile, its `${VAR}` references read from the environment at run time, and
 * `waitforTimeout` set to the profile's settle. Mocha bails at the first failure: a flow's
 * later steps assume the earlier ones.
 */
export function renderWdioConfig(target: WdioTarget, specFile: string): string {
  return [
    `// WebdriverIO configuration for ${specFile}, exported by \`senseact export\`.`,
    `// Server and capabilities from the device profile ${target.profile}; \${VAR} references are read from the environment when the test runs.`,
    `// Run: npx wdio run ${specFile.replace(/\.spec\.ts$/, '.wdio.conf.ts')}`,
    '',
    `function env(name: string, fallback?: string): string {`,
    `  const value = process.env[name];`,
    `  if (value !== undefined && value !== '') return value;`,
    `  if (fallback !== undefined) return fallback;`,
    `  throw new Error(\`\${name} is not set: the device profile ${target.profile.replace(/`/g, '')} needs it\`);`,
    `}`,
    '',
    `const server = new URL(${tsString(target.url)});`,
    '',
    `export const config = {`,
    `  runner: 'local',`,
    `  specs: [${JSON.stringify(`./${specFile}`)}],`,
    `  maxInstances: 1,`,
    `  protocol: server.protocol.replace(':', ''),`,
    `  hostname: server.hostname,`,
    `  port: Number(server.port || (server.protocol === 'https:' ? 443 : 80)),`,
    `  path: server.pathname,`,
    `  capabilities: [${tsValue(target.capabilities, 1)}],`,
    `  logLevel: 'warn',`,
    `  waitforTimeout: ${target.settleMs},`,
    `  connectionRetryCount: 0,`,
    `  framework: 'mocha',`,
    `  mochaOpts: { ui: 'bdd', timeout: 120000, bail: true },`,
    `};`,
    '',
  ].join('\n');
}
