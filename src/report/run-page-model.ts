import type { TraceEvent } from '../trace/trace-event.js';
import type { Bounds, UiTree } from '../ui/ui-tree.js';
import { computeDelta, type Delta } from '../verify/compute-delta.js';
import type { Outcome } from '../verify/verify-outcome.js';
import { describeChanges, type ChangeLine } from './describe-changes.js';
import { expectationOutcomes, type ExpectationNode } from './expectation-outcomes.js';
import type { RunArtifacts, StepArtifacts, TextArtifact } from './read-run-artifacts.js';
import type { PanelMarks } from './screen-drawing.js';
import type { SpriteRef } from './screen-sprites.js';
import { stepMarkers, type StepMarker } from './step-markers.js';

/** A parsed screen the page can draw and reason about. */
export interface ReportScreen {
  readonly tree: UiTree;
  /** Where its drawing lies in the report's screen sprites; undefined when nothing on it is visible. */
  readonly drawing: SpriteRef | undefined;
  /** The screen's units by id (label and bounds), from perception: for a step without scg.json. */
  units(): ReadonlyMap<string, { readonly label: string; readonly bounds: Bounds }>;
}

/** Where the page gets screens: parsed and drawn once per distinct hierarchy, or why not. */
export type ScreenSource = (artifact: TextArtifact, observed: { readonly packageName?: string; readonly activity?: string }) => ReportScreen | { readonly problem: string };

/** One side of a step. */
export interface PanelModel {
  readonly caption: string;
  readonly screen?: ReportScreen;
  /** A screenshot of this side (relative to the run folder), drawn in the screen's coordinates. */
  readonly screenshot?: { readonly path: string; readonly width: number; readonly height: number };
  readonly marks: PanelMarks;
  readonly missing?: string;
}

/** Everything one step shows. */
export interface StepModel {
  readonly step: number;
  readonly folder: string;
  readonly events: readonly TraceEvent[];
  readonly intent?: string;
  readonly finish: boolean;
  readonly actions: readonly string[];
  readonly verdict?: { readonly outcome: Outcome; readonly reason: string; readonly by?: string };
  readonly markers: readonly StepMarker[];
  readonly before: PanelModel;
  readonly after?: PanelModel;
  readonly changeLabel?: string;
  readonly changes: readonly ChangeLine[];
  /** The plan's expectation: evaluated atom by atom (`tree`), or why it was not (`unevaluated`; neither: it does not parse). */
  readonly expectation?: { readonly text: string; readonly tree?: ExpectationNode; readonly unevaluated?: string };
  readonly unitChecks: readonly { readonly unit: string; readonly outcome: string; readonly reason: string }[];
  readonly view?: TextArtifact;
  /** The step's model calls as the trace tells them (role, model, tokens, images, the file with prompt and reply). */
  readonly modelCalls: readonly Extract<TraceEvent, { type: 'model-call-end' | 'vlm-call-end' }>[];
  readonly files: readonly string[];
  /** Screenshots of the step that no event places before or after (traces older than screenshot-end). */
  readonly looseScreenshot?: string;
}

/**
 * Turns a run folder's artifacts into what its page shows, step by step: the screen the
 * step started from and the one its action left (each step's `after.xml`; the first
 * step starts from step 0's `before.xml`), the tap point and target unit on the before
 * screen, the changed nodes on the after screen, the delta in words, the expectation
 * evaluated atom by atom, and the step's badges. Pure but for `screens`.
 */
export function buildStepModels(artifacts: RunArtifacts, screens: ScreenSource): StepModel[] {
  const models: StepModel[] = [];
  let previous: ReportScreen | undefined;
  let previousProblem: string | undefined;
  for (const step of artifacts.steps) {
    const events = artifacts.events.filter((event) => event.step === step.step);
    const observed = (name: string): { packageName?: string; activity?: string } => {
      const event = events.find((candidate) => candidate.type === 'observe-end' && candidate.artifact?.endsWith(name));
      return event?.type === 'observe-end' ? { packageName: event.packageName, activity: event.activity } : {};
    };
    const load = (artifact: TextArtifact | undefined, name: string): { screen?: ReportScreen; problem?: string } => {
      if (artifact === undefined) return {};
      if (artifact.truncated) return { problem: `${artifact.name} is too large to draw` };
      const loaded = screens(artifact, observed(name));
      return 'problem' in loaded ? { problem: loaded.problem } : { screen: loaded };
    };
    const start = load(step.before, 'before.xml');
    const before = start.screen ?? previous;
    const beforeProblem = start.problem ?? (start.screen === undefined ? previousProblem : undefined);
    const end = load(step.after, 'after.xml');
    const shots = events.filter((event): event is Extract<TraceEvent, { type: 'screenshot-end' }> => event.type === 'screenshot-end');
    // A compact trace keeps its screenshots in the store: there is no file to show; the hierarchy is drawn instead.
    const stored = (side: 'before' | 'after'): string => (artifacts.format === 'compact' && shots.some((event) => event.of === side) ? ' (screenshot in the trace store)' : '');
    const shotOf = (side: 'before' | 'after'): PanelModel['screenshot'] => {
      const shot = shots.find((event) => event.of === side);
      if (shot === undefined || artifacts.format === 'compact') return undefined;
      const screen = side === 'before' ? before : end.screen;
      return { path: shot.artifact.split(/[\\/]/).join('/'), width: screen?.tree.width ?? shot.width, height: screen?.tree.height ?? shot.height };
    };
    const acts = events.filter((event): event is Extract<TraceEvent, { type: 'act-end' }> => event.type === 'act-end');
    const units = unitTable(step, before);
    const beforeMarks: PanelMarks = {
      points: acts.flatMap((event) => pointOf(event.action)),
      strokes: acts.flatMap((event) => strokeOf(event.action)),
      targets: acts.flatMap((event) => {
        const bounds = event.unitId === undefined ? undefined : units.get(event.unitId)?.bounds;
        return bounds === undefined ? scrollBounds(event.action) : [bounds];
      }),
    };
    const { delta, changes } = changesOf(step, before, end.screen);
    const plan = events.find((event): event is Extract<TraceEvent, { type: 'plan-end' }> => event.type === 'plan-end');
    const expectationText = typeof plan?.expectation === 'string' && plan.expectation.trim() !== '' ? plan.expectation : undefined;
    const verdicts = events.filter((event): event is Extract<TraceEvent, { type: 'verify-end' }> => event.type === 'verify-end');
    const verdict = verdicts.at(-1);
    const isStart = step.step === 0 && acts.length === 0 && plan === undefined;
    const model: StepModel = {
      step: step.step,
      folder: step.folder,
      events,
      ...(plan === undefined ? {} : { intent: plan.intent }),
      finish: plan?.finish === true,
      actions: acts.map((event) => describeAction(event.action, event.unitId === undefined ? undefined : units.get(event.unitId)?.label)),
      ...(verdict === undefined ? {} : { verdict: { outcome: verdict.outcome, reason: verdict.reason ?? '', ...(verdict.by === undefined ? {} : { by: verdict.by }) } }),
      markers: stepMarkers(events),
      before: {
        caption: `${isStart ? 'start screen' : 'before'}${stored('before')}`,
        ...(before === undefined ? { missing: beforeProblem ?? 'no hierarchy recorded before this step' } : { screen: before }),
        ...withShot(shotOf('before')),
        marks: beforeMarks,
      },
      ...(isStart ? {} : {
        after: {
          caption: `after${stored('after')}`,
          ...(end.screen === undefined ? { missing: end.problem ?? (acts.length === 0 ? 'no action in this step' : 'no hierarchy recorded after the action') } : { screen: end.screen }),
          ...withShot(shotOf('after')),
          marks: { changed: changes.filter((line) => line.screen === 'after' && line.bounds !== undefined).slice(0, 40).map((line) => line.bounds as Bounds) },
        } satisfies PanelModel,
      }),
      ...(delta?.label === undefined ? {} : { changeLabel: delta.label }),
      changes,
      ...(expectationText === undefined ? {} : { expectation: { text: expectationText, ...evaluated(expectationText, before, end.screen, delta?.full) } }),
      unitChecks: unitChecksOf(step.predicates),
      ...(step.view === undefined ? {} : { view: step.view }),
      modelCalls: events.filter((event): event is Extract<TraceEvent, { type: 'model-call-end' | 'vlm-call-end' }> => event.type === 'model-call-end' || event.type === 'vlm-call-end'),
      files: step.files,
      ...(step.screenshot !== undefined && shots.length === 0 ? { looseScreenshot: `${step.folder}/screenshot.png` } : {}),
    };
    models.push(model);
    if (end.screen !== undefined || end.problem !== undefined) {
      previous = end.screen;
      previousProblem = end.problem;
    } else if (start.screen !== undefined) {
      previous = start.screen;
    }
  }
  return models;
}

function withShot(shot: PanelModel['screenshot']): { screenshot?: NonNullable<PanelModel['screenshot']> } {
  return shot === undefined ? {} : { screenshot: shot };
}

function evaluated(text: string, before: ReportScreen | undefined, after: ReportScreen | undefined, delta: Delta | undefined): { tree?: ExpectationNode; unevaluated?: string } {
  // Without an after screen there is nothing to hold it against; whether it parses is another matter.
  if (after === undefined) return { unevaluated: 'not evaluated: no screen was recorded after this step (no action ran)' };
  const tree = expectationOutcomes(text, { after: after.tree, ...(before === undefined ? {} : { before: before.tree }), ...(delta === undefined ? {} : { delta }) });
  return tree === undefined ? {} : { tree };
}

/** Units of the before screen: the step's scg.json when written, else perception of the screen. */
function unitTable(step: StepArtifacts, before: ReportScreen | undefined): ReadonlyMap<string, { label: string; bounds: Bounds }> {
  const json = step.scg?.json;
  if (isRecord(json) && Array.isArray(json['units'])) {
    const table = new Map<string, { label: string; bounds: Bounds }>();
    for (const unit of json['units']) {
      if (!isRecord(unit) || typeof unit['id'] !== 'string' || !isBounds(unit['bounds'])) continue;
      table.set(unit['id'], { label: typeof unit['label'] === 'string' ? unit['label'] : '', bounds: unit['bounds'] });
    }
    return table;
  }
  return before?.units() ?? new Map();
}

/** The step's changes: delta.json as the agent wrote it, else computed from the two screens. */
function changesOf(step: StepArtifacts, before: ReportScreen | undefined, after: ReportScreen | undefined): { delta?: { label?: string; full?: Delta }; changes: ChangeLine[] } {
  const json = step.delta?.json;
  if (isRecord(json) && Array.isArray(json['changes'])) {
    return { delta: { ...(typeof json['label'] === 'string' ? { label: json['label'] } : {}) }, changes: describeChanges(json['changes'], before?.tree, after?.tree) };
  }
  if (before === undefined || after === undefined) return { changes: [] };
  const full = computeDelta(before.tree, after.tree);
  return { delta: { label: full.label, full }, changes: describeChanges(full.changes, before.tree, after.tree) };
}

function unitChecksOf(predicates: TextArtifact | undefined): StepModel['unitChecks'] {
  const json = predicates?.json;
  if (!isRecord(json) || !Array.isArray(json['units'])) return [];
  return json['units'].flatMap((entry) => {
    if (!isRecord(entry) || !isRecord(entry['outcome'])) return [];
    const outcome = entry['outcome'];
    return [{ unit: String(entry['unit'] ?? '?'), outcome: String(outcome['outcome'] ?? '?'), reason: typeof outcome['reason'] === 'string' ? outcome['reason'] : '' }];
  });
}

type Point = readonly [number, number];

function pointOf(action: Record<string, unknown>): Point[] {
  const point = action['point'];
  return isPoint(point) ? [point] : [];
}

function strokeOf(action: Record<string, unknown>): (readonly [Point, Point])[] {
  if (action['type'] === 'swipe' && isPoint(action['from']) && isPoint(action['to'])) return [[action['from'], action['to']]];
  if (action['type'] === 'scroll' && isBounds(action['bounds'])) {
    // Content moves against the finger: scrolling down drags the finger up.
    const [left, top, right, bottom] = action['bounds'];
    const x = (left + right) / 2;
    const y = (top + bottom) / 2;
    const dx = (right - left) / 3;
    const dy = (bottom - top) / 3;
    switch (action['direction']) {
      case 'down': return [[[x, y + dy], [x, y - dy]]];
      case 'up': return [[[x, y - dy], [x, y + dy]]];
      case 'right': return [[[x + dx, y], [x - dx, y]]];
      case 'left': return [[[x - dx, y], [x + dx, y]]];
      default: return [];
    }
  }
  return [];
}

function scrollBounds(action: Record<string, unknown>): Bounds[] {
  return action['type'] === 'scroll' && isBounds(action['bounds']) ? [action['bounds']] : [];
}

/** `tap (933, 336) on 'Expand 8:30 AM alarm'`, `type 'hello'`, `scroll down`, `key back`. */
export function describeAction(action: Record<string, unknown>, unitLabel: string | undefined): string {
  const on = unitLabel === undefined || unitLabel === '' ? '' : ` on '${unitLabel}'`;
  const point = isPoint(action['point']) ? ` (${action['point'][0]}, ${action['point'][1]})` : '';
  switch (action['type']) {
    case 'tap':
    case 'long-press':
    case 'clear':
      return `${String(action['type'])}${point}${on}`;
    case 'type':
      return `type ${JSON.stringify(String(action['text'] ?? ''))}${point}${on}`;
    case 'scroll':
      return `scroll ${String(action['direction'] ?? '')}${on}`;
    case 'swipe':
      return `swipe ${isPoint(action['from']) ? `(${action['from'].join(', ')})` : ''} → ${isPoint(action['to']) ? `(${action['to'].join(', ')})` : ''}`;
    case 'key':
      return `key ${String(action['key'] ?? '')}`;
    case 'launch':
      return `launch ${String(action['packageName'] ?? '')}`;
    default:
      return JSON.stringify(action);
  }
}

function isPoint(value: unknown): value is Point {
  return Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'number');
}

function isBounds(value: unknown): value is Bounds {
  return Array.isArray(value) && value.length === 4 && value.every((part) => typeof part === 'number');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
