// debug's VERDICT lines say each piece of evidence once: a commitment's verdict lists its
// units' reasons and then the expectation's, which often quote the same evidence as the
// unit's verdict just above it. Parts already shown read "as above"; a part not shown stays.
import { describe, expect, it } from 'vitest';
import { formatTraceStep } from '../../../src/report/format-trace-step.js';
import type { RunArtifacts, StepArtifacts } from '../../../src/report/read-run-artifacts.js';
import type { TraceEvent } from '../../../src/trace/trace-event.js';

const evidence = 'text="Screen saver" matches 1 node(s): #15 TextView "Screen saver" [534,84][1059,210] (new evidence: exists(text="Screen saver") is newly true)';
const unit = `click "More options": ${evidence}`;
const step: StepArtifacts = { step: 1, folder: 'steps/001', files: [], modelCalls: [], modelCallFiles: [] };

function verdicts(reasons: readonly [string, string], outcome: 'pass' | 'fail' = 'pass'): string[] {
  const events: TraceEvent[] = reasons.map((reason, index) => ({ v: 1, type: 'verify-end', t: index, step: 1, outcome, reason, label: 'partial-change', by: 'contract', strength: 'strong' }));
  const artifacts: RunArtifacts = { traceDir: '/runs/r', hasTrace: true, events, problems: [], steps: [step] };
  return formatTraceStep(artifacts, step).split('\n').filter((line) => line.startsWith('VERDICT'));
}

describe('formatTraceStep verdicts', () => {
  it('a commitment whose reason repeats the unit verdict and its evidence says "as above"', () => {
    const lines = verdicts([unit, `commitment passed: ${unit}; ${evidence}`]);
    expect(lines).toEqual([
      `VERDICT  PASS — ${unit} [delta partial-change] by contract (strong evidence)`,
      'VERDICT  PASS — commitment passed, as above [delta partial-change] by contract (strong evidence)',
    ]);
    expect(lines.join('\n').split(evidence)).toHaveLength(2);
    const failed = verdicts([unit, `commitment failed: ${unit}`], 'fail');
    expect(failed[1]).toBe('VERDICT  FAIL — commitment failed, as above [delta partial-change] by contract (strong evidence)');
  });

  it('keeps what the verdicts above did not say (negative control)', () => {
    const other = 'exists(text="Wallpaper") holds: #9 TextView "Wallpaper"';
    const lines = verdicts([unit, `commitment passed: ${unit}; ${other}`]);
    expect(lines[1]).toBe(`VERDICT  PASS — commitment passed, as above; ${other} [delta partial-change] by contract (strong evidence)`);
    // A reason that does not begin with a part shown above is printed whole.
    const whole = `commitment passed: ${other}; ${unit}`;
    expect(verdicts([unit, whole])[1]).toBe(`VERDICT  PASS — ${whole} [delta partial-change] by contract (strong evidence)`);
  });
});

describe('formatTraceStep evidence kinds', () => {
  it('names the kind of evidence a pass rests on, when the trace has it', () => {
    const events: TraceEvent[] = [{ v: 1, type: 'verify-end', t: 0, step: 1, outcome: 'pass', reason: 'navigate back: it returned to the page the run came from', label: 'new-page', by: 'contract', strength: 'strong', tie: 'went-back' }];
    const artifacts: RunArtifacts = { traceDir: '/runs/r', hasTrace: true, events, problems: [], steps: [step] };
    expect(formatTraceStep(artifacts, step).split('\n').filter((line) => line.startsWith('VERDICT'))).toEqual([
      'VERDICT  PASS — navigate back: it returned to the page the run came from [delta new-page] by contract (strong evidence: went-back)',
    ]);
  });
});

describe('formatTraceStep screen', () => {
  const seenLine = (activityStack?: string[]): string | undefined => {
    const events: TraceEvent[] = [{ v: 1, type: 'observe-end', t: 0, step: 1, packageName: 'com.example.notes', activity: '.EditActivity', latencyMs: 12, polls: 1, settled: true, ...(activityStack ? { activityStack } : {}) }];
    const artifacts: RunArtifacts = { traceDir: '/runs/r', hasTrace: true, events, problems: [], steps: [step] };
    return formatTraceStep(artifacts, step).split('\n').find((line) => line.startsWith('SEEN'));
  };

  it('names the activities under the top one when the device told the stack', () => {
    expect(seenLine(['com.example.notes/.EditActivity', 'com.example.notes/.ListActivity'])).toBe('SEEN     com.example.notes/.EditActivity (over com.example.notes/.ListActivity), settled (12 ms)');
    expect(seenLine(['com.example.notes/.EditActivity'])).toBe('SEEN     com.example.notes/.EditActivity, settled (12 ms)');
    expect(seenLine()).toBe('SEEN     com.example.notes/.EditActivity, settled (12 ms)');
  });
});
