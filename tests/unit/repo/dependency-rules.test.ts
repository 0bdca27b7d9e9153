// The rooms of src/agent keep the policy out of the loop: `npm run lint` runs
// dependency-cruiser with .dependency-cruiser.cjs over src/, and its rule
// `no-policy-in-the-loop` refuses an import of src/agent/policies/ from anywhere in
// src/agent but runTask (which wires a policy to a run) and the policies themselves.
// The rule is checked here on a small tree written for the test, both ways: the
// imports it must refuse are reported, the ones it must allow are not.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const config = createRequire(import.meta.url)(path.join(repoRoot, '.dependency-cruiser.cjs')) as { forbidden: IForbiddenRuleType[] };
const rule = config.forbidden.find((candidate) => candidate.name === 'no-policy-in-the-loop');

/** The tree: file → what it imports (relative specifiers, as the code writes them). */
const tree: Record<string, readonly string[]> = {
  'src/agent/policies/oracle/oracle-models.ts': ['./oracle-guide.js'],
  'src/agent/policies/oracle/oracle-guide.ts': ['../../prompts/read-prompt.js'],
  'src/agent/prompts/read-prompt.ts': [],
  'src/agent/run-task.ts': ['./policies/oracle/oracle-models.js', './loop/run-senseact.js'],
  'src/agent/loop/run-senseact.ts': ['../policies/oracle/oracle-guide.js'],
  'src/agent/planning/plan-intent.ts': ['../policies/oracle/oracle-models.js'],
  'src/agent/senseact-agent.ts': ['./run-task.js', './policies/oracle/oracle-models.js'],
  'src/bench/compose.ts': ['../agent/policies/oracle/oracle-models.js'],
};

let root: string;
let violations: string[];
let edges: string[];

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'senseact-rules-'));
  for (const [file, imports] of Object.entries(tree)) {
    mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, file), [...imports.map((specifier, index) => `import * as m${index} from '${specifier}';`), 'export const used = 1;', ''].join('\n'));
  }
  if (!rule) throw new Error('.dependency-cruiser.cjs has no rule named no-policy-in-the-loop');
  const result = await cruise(['src'], { baseDir: root, ruleSet: { forbidden: [rule] }, validate: true, tsPreCompilationDeps: true }, { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } });
  const output = result.output as ICruiseResult;
  violations = output.summary.violations.map((violation) => `${violation.from} -> ${violation.to}`).sort();
  edges = output.modules.flatMap((module) => module.dependencies.filter((dependency) => !dependency.couldNotResolve).map((dependency) => `${module.source} -> ${dependency.resolved}`));
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the dependency rule no-policy-in-the-loop', () => {
  it('refuses a policy imported by the loop, by planning, or by the agent entry point', () => {
    expect(violations).toEqual([
      'src/agent/loop/run-senseact.ts -> src/agent/policies/oracle/oracle-guide.ts',
      'src/agent/planning/plan-intent.ts -> src/agent/policies/oracle/oracle-models.ts',
      'src/agent/senseact-agent.ts -> src/agent/policies/oracle/oracle-models.ts',
    ]);
  });

  it('allows runTask, the policy itself and the layers above the agent to import it', () => {
    const allowed = [
      'src/agent/run-task.ts -> src/agent/policies/oracle/oracle-models.ts',
      'src/agent/policies/oracle/oracle-models.ts -> src/agent/policies/oracle/oracle-guide.ts',
      'src/bench/compose.ts -> src/agent/policies/oracle/oracle-models.ts',
    ];
    expect(edges).toEqual(expect.arrayContaining(allowed));
    expect(violations.filter((violation) => allowed.includes(violation))).toEqual([]);
  });
});
