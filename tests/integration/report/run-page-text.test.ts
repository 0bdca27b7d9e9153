// The run page's words: the header counts what it says it counts (actions executed as the
// result records them, loop steps as the cards below), a verdict nothing checked says no
// "by none", an expectation of a step without an after screen is "not evaluated" rather
// than "not in the predicate language", and a wireframe label never runs past its node
// (the status bar's icons overlapped one another).
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import type { AgentMode, TaskRunResult } from '../../../src/agent/task-run-result.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { RunArtifacts, TextArtifact } from '../../../src/report/read-run-artifacts.js';
import { buildStepModels } from '../../../src/report/run-page-model.js';
import { drawScreen, fitLabel } from '../../../src/report/screen-drawing.js';
import { screenCache, writeReport } from '../../../src/report/write-report.js';
import { Simulator } from '../../../src/sim/simulator.js';
import type { TraceEvent } from '../../../src/trace/trace-event.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const root = temporaryRunRoot('senseact-run-page-text-');

async function runAndRender(mode: AgentMode): Promise<{ result: TaskRunResult; page: string }> {
  const task = simSuiteTask('settings-airplane-on');
  const device = new SimDevice(simulatorForTask(task, { seed: 1 }));
  const result = await runTask({ task, mode, policy: 'oracle', device, probe: device, traceRoot: root.dir(), suite: `runs-${mode}` });
  const summary = path.join(root.dir(), `page-${mode}.html`);
  await writeReport({
    title: mode,
    generatedAt: '2026-11-27T00:00:00.000Z',
    summary: { title: 'runs', headers: [], rows: [], notes: [] },
    runs: [{ taskId: task.id, app: task.app, mode, repeat: 0, success: result.success, reason: result.reason, error: result.error, facts: [['actions executed', String(result.steps)]], traceDir: result.traceDir }],
  }, summary);
  return { result, page: await readFile(path.join(root.dir(), `page-${mode}`, task.id, `${mode}-r0.html`), 'utf8') };
}

const fact = (page: string, label: string): string | undefined => new RegExp(`<dt>${label}</dt><dd>([^<]*)</dd>`).exec(page)?.[1];

describe('the run page header and verdicts', () => {
  it('counts loop steps as the cards it shows, beside the actions the result counts', async () => {
    const { result, page } = await runAndRender('open-loop');
    const cards = [...page.matchAll(/<section class="step" id="step-(\d+)">/g)].map((match) => Number(match[1]));
    expect(cards.length).toBeGreaterThan(result.steps);
    expect(fact(page, 'loop steps')).toBe(`${cards.length} (0–${cards.at(-1)}, below)`);
    expect(fact(page, 'actions executed')).toBe(String(result.steps));
    expect(fact(page, 'steps')).toBeUndefined();
  });

  it('says nothing of who checked an open-loop verdict, and names the check of a verified one', async () => {
    const open = await runAndRender('open-loop');
    expect(open.page).toContain('open-loop: execution feedback is off');
    expect(open.page).not.toContain('by none');
    const verified = await runAndRender('senseact');
    expect(verified.page).toContain("(checked on the screen: the unit's contract and the expectation)");
    expect(verified.page).not.toContain('by none');
  });
});

describe('an expectation the page cannot evaluate', () => {
  const screen = (name: string): TextArtifact => ({ name, text: new Simulator({ seed: 1 }).pageSource(), truncated: false });
  const plan = (step: number, expectation: string): TraceEvent => ({ type: 'plan-end', step, t: 0, latencyMs: 1, intent: 'look', expectation }) as TraceEvent;
  const artifacts = (expectation: string, withAfter: boolean): RunArtifacts => ({
    traceDir: '/nowhere',
    hasTrace: true,
    events: [plan(1, expectation)],
    problems: [],
    steps: [
      { step: 0, folder: 'steps/000', files: ['before.xml'], before: screen('before.xml'), modelCalls: [], modelCallFiles: [] },
      { step: 1, folder: 'steps/001', files: [], ...(withAfter ? { after: screen('after.xml') } : {}), modelCalls: [], modelCallFiles: [] },
    ],
  });

  it('says a valid expectation was not evaluated when no action left an after screen', () => {
    const [, step] = buildStepModels(artifacts('exists(text="Airplane mode")', false), screenCache().source);
    expect(step?.expectation).toEqual({ text: 'exists(text="Airplane mode")', unevaluated: 'not evaluated: no screen was recorded after this step (no action ran)' });
  });

  it('evaluates it atom by atom when there is an after screen, and calls unparsable text what it is', () => {
    const [, step] = buildStepModels(artifacts('exists(text="Airplane mode")', true), screenCache().source);
    expect(step?.expectation?.tree?.outcome).toBe('fail');
    const [, bad] = buildStepModels(artifacts('the airplane switch is on', true), screenCache().source);
    expect(bad?.expectation).toEqual({ text: 'the airplane switch is on' });
  });
});

describe('wireframe labels', () => {
  it('keeps every label inside its node: the status bar icons lose theirs, the clock and rows keep theirs', () => {
    const simulator = new Simulator({ seed: 1 });
    simulator.launchApp('com.android.settings');
    const tree = parseHierarchy(simulator.pageSource());
    const markup = drawScreen(tree)?.markup.markup ?? '';
    const size = /^<g font-size="(\d+)">/.exec(markup)?.[1];
    expect(size).toBe('30');
    const drawn = [...markup.matchAll(/<rect class="node[^"]*" x="(\d+)" y="\d+" width="(\d+)" height="\d+"\/><text x="\d+" y="\d+">([^<]*)<\/text>/g)];
    expect(drawn.length).toBeGreaterThan(5);
    for (const [, x, width, label] of drawn) {
      const characters = (label ?? '').replace(/&[a-z#0-9]+;/g, '_').length;
      expect(4 + characters * Number(size) * 0.6, `label "${label}"`).toBeLessThanOrEqual(Number(width) - 4 + 1e-9);
      expect(Number(x)).toBeGreaterThanOrEqual(0);
    }
    const labels = drawn.map((match) => match[3]);
    expect(labels).toContain('9:00');
    expect(labels).toContain('Network &amp; internet');
    expect(labels.some((label) => /Bluetooth on|Wifi signal|Phone signal|Battery 100/.test(label ?? ''))).toBe(false);
    // The tooltip keeps the whole text of a node drawn without its label.
    expect(markup).toContain('<title>android.widget.ImageView · com.android.systemui:id/bluetooth · Bluetooth on.</title>');
  });

  it('fits a label to its node: whole, cut with an ellipsis, or none', () => {
    expect(fitLabel('Network & internet', 1000, 30)).toBe('Network & internet');
    expect(fitLabel('Network & internet', 8 + 18 * 10, 30)).toBe('Network &…');
    expect(fitLabel('Bluetooth on.', 47, 30)).toBe('');
    expect(fitLabel('9:00', 81, 30)).toBe('9:00');
  });
});
