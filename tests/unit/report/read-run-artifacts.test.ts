import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxEmbeddedChars, readRunArtifacts } from '../../../src/report/read-run-artifacts.js';
import { drawScreen } from '../../../src/report/screen-drawing.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';

describe('readRunArtifacts (synthetic run folders)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-artifacts-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reports a folder without a trace instead of throwing', async () => {
    const artifacts = await readRunArtifacts(path.join(root, 'never-written'));
    expect(artifacts).toEqual({ traceDir: path.join(root, 'never-written'), hasTrace: false, format: 'full', events: [], problems: [], steps: [] });
  });

  it('merges steps from events and folders, parses JSON, cuts big text, and lists problems', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.emit({ type: 'step-start', step: 2 });
    writer.writeStepArtifact(0, 'delta.json', { label: 'no-change' });
    writer.writeStepArtifact(0, 'view.txt', 'x'.repeat(maxEmbeddedChars + 10));
    writer.writeModelCall(0, { role: 'planner' });
    writer.writeModelCall(0, { role: 'verifier' });
    await writer.close();
    await writeFile(path.join(writer.dir, 'steps', '000', 'predicates.json'), '[{"outcome": "pass"');
    await mkdir(path.join(writer.dir, 'steps', '001'));
    await writeFile(path.join(writer.dir, 'trace.jsonl'), '{"v":1,"type":"step-end","t":', { flag: 'a' });

    const artifacts = await readRunArtifacts(writer.dir);
    expect(artifacts.steps.map((step) => [step.step, step.folder])).toEqual([[0, 'steps/000'], [1, 'steps/001'], [2, 'steps/002']]);
    const [first] = artifacts.steps;
    expect(first?.delta?.json).toEqual({ label: 'no-change' });
    expect(first?.view?.truncated).toBe(true);
    expect(first?.view?.text).toHaveLength(maxEmbeddedChars);
    expect(first?.modelCalls.map((call) => [call.name, call.json])).toEqual([['steps/000/model-calls/000.json', { role: 'planner' }], ['steps/000/model-calls/001.json', { role: 'verifier' }]]);
    expect(first?.predicates?.json).toBeUndefined();
    expect(artifacts.problems).toEqual([
      expect.stringMatching(/^trace\.jsonl: Line 3 is cut off/),
      expect.stringMatching(/^steps\/000\/predicates\.json is not valid JSON/),
    ]);
  });
});

describe('readRunArtifacts confined to a run folder (within)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'senseact-confined-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function runFolder(dir: string, secret: string): Promise<void> {
    const writer = new TraceWriter({ root: dir, suite: 's', task: 't', runId: 'r' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.writeStepArtifact(0, 'view.txt', secret);
    writer.writeModelCall(0, { role: 'planner', note: secret });
    await writer.close();
  }

  it('refuses a trace folder outside the run folder, and reads the same folder inside it (control)', async () => {
    await runFolder(path.join(root, 'elsewhere'), 'OUTSIDE');
    const elsewhere = path.join(root, 'elsewhere', 's', 't', 'r');
    const bench = path.join(root, 'bench');
    await mkdir(bench);
    const refused = await readRunArtifacts(path.resolve(bench, '../elsewhere/s/t/r'), { within: bench });
    expect(refused.refused).toMatch(/lies outside the run folder .*bench: not read/);
    expect(refused.steps).toEqual([]);
    expect(refused.events).toEqual([]);
    const control = await readRunArtifacts(elsewhere, { within: root });
    expect(control.refused).toBeUndefined();
    expect(control.steps[0]?.view?.text).toBe('OUTSIDE');
  });

  it('does not follow links out of the run folder (trace folder, steps/, model calls, step files)', async () => {
    await runFolder(path.join(root, 'elsewhere'), 'OUTSIDE');
    const outside = path.join(root, 'elsewhere', 's', 't', 'r');
    const bench = path.join(root, 'bench');
    await runFolder(bench, 'INSIDE');
    const inside = path.join(bench, 's', 't', 'r');
    await symlink(outside, path.join(bench, 'linked'));
    expect((await readRunArtifacts(path.join(bench, 'linked'), { within: bench })).refused).toMatch(/outside the run folder/);
    await symlink(path.join(outside, 'steps', '000', 'model-calls', '000.json'), path.join(inside, 'steps', '000', 'model-calls', '001.json'));
    await symlink(path.join(outside, 'steps', '000', 'view.txt'), path.join(inside, 'steps', '000', 'delta.json'));
    const artifacts = await readRunArtifacts(inside, { within: bench });
    expect(artifacts.steps[0]?.view?.text).toBe('INSIDE');
    expect(artifacts.steps[0]?.delta).toBeUndefined();
    expect(artifacts.steps[0]?.modelCalls.map((call) => call.name)).toEqual(['steps/000/model-calls/000.json']);
    expect(artifacts.problems).toEqual([expect.stringMatching(/^steps\/000\/model-calls\/001\.json leads outside the run folder/)]);
    expect(JSON.stringify(artifacts)).not.toContain('OUTSIDE');
    // Control: unconfined, the same link is followed.
    const unconfined = await readRunArtifacts(inside);
    expect(JSON.stringify(unconfined.steps[0]?.modelCalls)).toContain('OUTSIDE');
    // A steps/ folder that is a link out of the run folder.
    const hollow = path.join(bench, 'hollow');
    await mkdir(hollow);
    await symlink(path.join(outside, 'steps'), path.join(hollow, 'steps'));
    const linkedSteps = await readRunArtifacts(hollow, { within: bench });
    expect(linkedSteps.steps).toEqual([]);
    expect(linkedSteps.problems).toEqual([expect.stringMatching(/^steps\/ leads outside the run folder/)]);
    expect((await readRunArtifacts(hollow)).steps[0]?.view?.text).toBe('OUTSIDE');
  });
});

describe('drawScreen', () => {
  it('draws visible nodes with escaped labels, and nothing for an empty screen', () => {
    const xml = `<hierarchy rotation="0" width="100" height="200"><android.widget.Button class="android.widget.Button" text="&lt;b&gt;OK" clickable="true" bounds="[0,0][50,40]" displayed="true"/><android.view.View class="android.view.View" bounds="[0,0][0,0]" displayed="true"/></hierarchy>`;
    const markup = drawScreen(parseHierarchy(xml))?.markup.markup ?? '';
    expect(markup).toMatch(/^<g font-size="12"><rect class="screen" x="0" y="0" width="100" height="200"\/>/);
    expect(markup).toContain('&lt;b&gt;OK</text>');
    expect(markup).not.toContain('<b>');
    // The zero-size view is not drawn: one node rectangle.
    expect(markup.match(/<rect class="node/g)).toHaveLength(1);
    expect(drawScreen(parseHierarchy('<hierarchy rotation="0" width="100" height="200"></hierarchy>'))).toBeUndefined();
  });
});
