// Back and Home replayed by `replayVerification` as the loop's nav-back / nav-home, on
// hand-made screens of a notes app, a browser and a home screen. A recording that skips from
// the home screen or another app's page into the app started the app from there, so Back
// from the app's first page to that screen is tied to Back, and Back to the home screen after
// a skip from the browser is not. Back to the home screen from a page with none under it (the
// page a recording starts on) is. A key that is no unit of the loop (Enter) is left out, as
// before.
import { describe, expect, it } from 'vitest';
import { replayVerification } from '../../../src/bench/verify-replay.js';
import type { ReplayAction, ReplaySource, ReplayStep } from '../../../src/tasks/replay/replay-task.js';
import type { UiTree } from '../../../src/ui/ui-tree.js';
import { hierarchy, node, screen } from '../verify/screens.js';

const app = 'com.example.notes';

function page(packageName: string, title: string, rows: readonly string[]): UiTree {
  return screen(hierarchy(node({ class: 'android.widget.FrameLayout', package: packageName, bounds: '[0,0][1080,2400]' },
    node({ text: title, package: packageName, bounds: '[40,80][800,180]' })
    + rows.map((row, index) => node({ text: row, clickable: true, package: packageName, bounds: `[0,${300 + index * 200}][1080,${480 + index * 200}]` })).join(''))), { packageName, activity: '.Main' });
}

const home = page('com.android.launcher3', 'Home', ['Notes', 'Clock', 'Maps']);
const browser = page('org.example.browser', 'example.org', ['News', 'Weather']);
const list = page(app, 'Notes', ['Shopping', 'Holiday', 'Books']);
const note = page(app, 'Shopping', ['Milk', 'Eggs']);

function step(id: string, before: UiTree, action: ReplayAction, after: UiTree): ReplayStep {
  return { id, app: before.packageName, before, after, beforeFile: `${id}-before`, afterFile: `${id}-after`, action, noVisibleEffect: false };
}

function replay(steps: ReplayStep[]): ReturnType<typeof replayVerification> {
  const source: ReplaySource = { name: 'hand-made', format: 'transitions-jsonl', tasks: [{ id: 'run', app, steps }], skipped: [], unreadable: [], screens: { read: 0, withInvertedBounds: 0, invertedViews: 0 } };
  return replayVerification(source);
}

describe('Back and Home in a replay', () => {
  it('ties Back to the home screen a skip came from, Home to the home screen it reached, and leaves Enter out', () => {
    const report = replay([
      step('home', note, { kind: 'key', key: 'HOME' }, home),
      // Not recorded: the app started again from the home screen.
      step('back', list, { kind: 'key', key: 'BACK' }, home),
      step('enter', list, { kind: 'key', key: 'ENTER' }, note),
    ]);
    const byId = new Map(report.perStep.map((item) => [item.id, item]));
    expect(byId.get('home')).toMatchObject({ category: 'replayed', unitType: 'navigate', unitLabel: 'home', verdict: { outcome: 'pass', strength: 'strong', tie: 'home-screen' } });
    expect(byId.get('back')).toMatchObject({ category: 'replayed', unitType: 'navigate', unitLabel: 'back', verdict: { outcome: 'pass', strength: 'strong', tie: 'went-back' } });
    expect(byId.get('enter')).toMatchObject({ category: 'not-replayed', note: 'key press (not replayed)' });
  });

  it('ties Back after a skip from another app to that app\'s page, not to the home screen', () => {
    const toBrowser = replay([step('open', note, { kind: 'key', key: 'HOME' }, browser), step('back', list, { kind: 'key', key: 'BACK' }, browser)]);
    expect(toBrowser.perStep.find((item) => item.id === 'back')).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'strong', tie: 'went-back' } });
    const fromBrowser = replay([step('open', note, { kind: 'key', key: 'HOME' }, browser), step('back', list, { kind: 'key', key: 'BACK' }, home)]);
    expect(fromBrowser.perStep.find((item) => item.id === 'back')).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'weak' } });
  });

  it('ties Back to the home screen from a page with none under it: the page a recording starts on', () => {
    const alone = replay([step('back', list, { kind: 'key', key: 'BACK' }, home)]);
    expect(alone.perStep[0]).toMatchObject({ category: 'replayed', verdict: { outcome: 'pass', strength: 'strong', tie: 'left-for-home' } });
  });
});
