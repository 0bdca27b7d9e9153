import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxEmbeddedChars, readRunArtifacts } from '../../../src/report/read-run-artifacts.js';
import { renderWireframeSvg } from '../../../src/report/render-wireframe-svg.js';
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
    expect(artifacts).toEqual({ traceDir: path.join(root, 'never-written'), hasTrace: false, events: [], problems: [], steps: [] });
  });

  it('merges steps from events and folders, parses JSON, cuts big text, and lists problems', async () => {
    const writer = new TraceWriter({ root, suite: 's', task: 't', runId: 'r' });
    writer.emit({ type: 'step-start', step: 0 });
    writer.emit({ type: 'step-start', step: 2 });
    writer.writeStepArtifact(0, 'delta.json', { label: 'no-change' });
    writer.writeStepArtifact(0, 'view.txt', 'x'.repeat(maxEmbeddedChars + 10));
    writer.writeModelCall(0, { role: 'planner' });
    writer.writeModelCall(0, { role: 'verifier' });
    writer.close();
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

describe('renderWireframeSvg', () => {
  it('draws visible nodes with escaped labels and says why when it cannot', () => {
    const xml = `<hierarchy rotation="0" width="100" height="200"><android.widget.Button class="android.widget.Button" text="&lt;b&gt;OK" clickable="true" bounds="[0,0][50,40]" displayed="true"/><android.view.View class="android.view.View" bounds="[0,0][0,0]" displayed="true"/></hierarchy>`;
    const drawn = renderWireframeSvg(xml, 'after.xml');
    expect('svg' in drawn).toBe(true);
    const markup = 'svg' in drawn ? drawn.svg.markup : '';
    expect(markup).toContain('viewBox="0 0 100 200"');
    expect(markup).toContain('class="node clickable"');
    expect(markup).toContain('&lt;b&gt;OK</text>');
    expect(markup.match(/<rect class="node/g)).toHaveLength(1);
    expect(renderWireframeSvg('<hierarchy><node', 'after.xml')).toEqual({ problem: expect.stringContaining('after.xml') });
  });
});
