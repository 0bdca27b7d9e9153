// The dependency direction of docs/architecture.md §8, checked by `npm run lint`: which src/ folder
// may import which, and no import cycles anywhere in src/.
const layers = ['util', 'ui', 'perception', 'verify', 'memory', 'skills', 'device', 'sim', 'model', 'agent', 'tasks', 'bench', 'trace', 'report', 'mcp', 'export', 'cli'];

/** Which src/ folders each folder may import from (besides itself). */
const allowed = {
  util: [],
  ui: ['util'],
  perception: ['ui', 'util'],
  verify: ['perception', 'ui', 'util'],
  memory: ['verify', 'perception', 'ui', 'util'],
  skills: ['verify', 'perception', 'trace', 'ui', 'util'],
  sim: ['util'],
  device: ['sim', 'ui', 'util'],
  model: ['util'],
  trace: ['util'],
  tasks: ['verify', 'perception', 'ui', 'util'],
  agent: ['perception', 'verify', 'memory', 'skills', 'model', 'device', 'trace', 'tasks', 'ui', 'util'],
  report: ['trace', 'perception', 'verify', 'ui', 'util'],
  export: ['skills', 'device', 'verify', 'perception', 'trace', 'ui', 'util'],
  bench: ['agent', 'skills', 'tasks', 'device', 'sim', 'model', 'memory', 'trace', 'report', 'perception', 'verify', 'ui', 'util'],
  mcp: ['agent', 'skills', 'tasks', 'device', 'model', 'memory', 'trace', 'report', 'perception', 'verify', 'ui', 'util'],
  cli: layers.filter((layer) => layer !== 'cli'),
};

const layerRules = Object.entries(allowed)
  .map(([from, may]) => ({ from, forbidden: layers.filter((layer) => layer !== from && !may.includes(layer)) }))
  .filter((rule) => rule.forbidden.length > 0)
  .map((rule) => ({
    name: `layer-${rule.from}`,
    comment: `docs/architecture.md §8: src/${rule.from} may import only from ${allowed[rule.from].join(', ') || 'itself'}.`,
    severity: 'error',
    from: { path: `^src/${rule.from}/` },
    to: { path: `^src/(${rule.forbidden.join('|')})/` },
  }));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'appium-device-knows-no-simulator',
      comment: 'The real Appium adapter drives phones: what it needs of the simulator, the simulator\'s own Appium driver answers (src/sim/appium-driver).',
      severity: 'error',
      from: { path: '^src/device/appium-' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'no-policy-in-the-loop',
      comment: 'docs/architecture.md §6: a policy answers model calls and never changes what the loop does, so the loop, planning, prompts, skill replay and baselines never import one; only runTask wires a policy to a run.',
      severity: 'error',
      from: { path: '^src/agent/', pathNot: '^src/agent/(policies/|run-task\\.ts$)' },
      to: { path: '^src/agent/policies/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make the layering meaningless and module start-up order fragile.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
