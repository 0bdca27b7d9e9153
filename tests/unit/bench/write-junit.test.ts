import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { AgentMode, TaskRunResult } from '../../../src/agent/task-run-result.js';
import { benchResultsSchema, type BenchResults } from '../../../src/bench/bench-results.js';
import { computeModeMetrics } from '../../../src/bench/compute-mode-metrics.js';
import { renderJunit } from '../../../src/bench/write-junit.js';
import { runResult } from './run-result-builder.js';

const prices = { label: 'test prices', promptPerMillionUsd: 1, completionPerMillionUsd: 2 };

function results(runs: TaskRunResult[], modes: AgentMode[], taskIds: string[], repeat = 1): BenchResults {
  const expectedRuns = taskIds.length * modes.length * repeat;
  return benchResultsSchema.parse({
    version: 1, policy: 'llm', oracle: false,
    options: { suite: 'sim', modes, repeat, concurrency: 1, device: 'sim', faults: null, policy: 'llm', modelLabel: 'gpt-4o-mini', taskIds },
    prices, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:10.000Z', wallTimeMs: 10_000,
    complete: runs.length === expectedRuns, expectedRuns, modes: computeModeMetrics(runs, modes, prices), tasks: runs,
  });
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' });

describe('renderJunit', () => {
  it('writes one testcase per task, mode and repeat: passed, failed with the check, errored, and not run', () => {
    const runs = [
      runResult({ id: 'a', mode: 'senseact' }),
      runResult({ id: 'b', mode: 'senseact', success: false, reason: 'state com.android.settings wifi equals false: got true (agent: the planner said FINISH)' }),
      runResult({ id: 'a', mode: 'react-vlm', success: false, error: 'DeviceError: session lost\u0007', reason: 'infrastructure error: session lost' }),
    ];
    const xml = renderJunit(results(runs, ['senseact', 'react-vlm'], ['a', 'b']));
    const document = parser.parse(xml) as { testsuites: { testsuite: { name: string; tests: string; failures: string; errors: string; skipped: string; testcase: Record<string, unknown>[] }[] } };
    const [senseact, reactVlm] = document.testsuites.testsuite;
    expect(senseact).toMatchObject({ name: 'sim senseact', tests: '2', failures: '1', errors: '0', skipped: '0' });
    expect(senseact?.testcase.map((testcase) => testcase['name'])).toEqual(['a r0', 'b r0']);
    expect(senseact?.testcase[0]).not.toHaveProperty('failure');
    expect(senseact?.testcase[1]?.['failure']).toMatchObject({ message: 'state com.android.settings wifi equals false: got true (agent: the planner said FINISH)', type: 'task-failed' });
    expect(reactVlm).toMatchObject({ tests: '2', failures: '0', errors: '1', skipped: '1' });
    // The control character XML cannot carry is dropped, not written.
    expect(reactVlm?.testcase[0]?.['error']).toMatchObject({ message: 'DeviceError: session lost', type: 'infrastructure' });
    expect(reactVlm?.testcase[1]).toMatchObject({ name: 'b r0', skipped: { message: expect.stringContaining('interrupted') } });
    expect(xml).not.toContain('\u0007');
  });
});
