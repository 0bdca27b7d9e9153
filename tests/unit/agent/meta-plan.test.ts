// Meta-plan progress, pure: sub-tasks are checked on the screen in order, stay checked,
// survive a re-plan, and refuse FINISH while a checked sub-task is unmet.
import { describe, expect, it } from 'vitest';
import { carryOver, checkProgress, claimProgress, finishRefusal, metaPlanReplySchema, newProgress, renderProgress } from '../../../src/agent/planning/meta-plan-progress.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

function screen(...texts: string[]) {
  const nodes = texts.map((text, index) => `<node index="${index}" text="${text}" class="android.widget.TextView" package="p" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,${index * 100}][1080,${index * 100 + 90}]" resource-id="" />`).join('');
  return parseHierarchy(`<?xml version="1.0"?><hierarchy rotation="0"><node index="0" text="" class="android.widget.FrameLayout" package="p" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]" resource-id="">${nodes}</node></hierarchy>`, { packageName: 'p', activity: '.Main' });
}

const plan = metaPlanReplySchema.parse({
  subtasks: [
    { name: 'Open Display', done: 'exists(text="Dark theme")' },
    { name: 'Say nothing' },
    { name: 'Turn dark theme on', done: 'exists(text="Dark theme is on")' },
  ],
});

describe('meta-plan progress', () => {
  it('checks sub-tasks in order: a later one waits for the earlier checked one (negative: its evidence alone is not enough)', () => {
    const progress = newProgress(plan);
    // The later sub-task's evidence shows first: it is not checked before sub-task 1.
    expect(checkProgress(progress, { after: screen('Dark theme is on') })).toEqual([]);
    expect(progress.status).toEqual(['pending', 'pending', 'pending']);
    expect(checkProgress(progress, { after: screen('Dark theme') })).toEqual([0]);
    // A sub-task without a predicate never blocks the walk, and is never checked.
    expect(checkProgress(progress, { after: screen('Dark theme is on') })).toEqual([2]);
    expect(progress.status).toEqual(['checked', 'pending', 'checked']);
  });

  it('keeps a checked sub-task checked when its evidence leaves the screen', () => {
    const progress = newProgress(plan);
    checkProgress(progress, { after: screen('Dark theme') });
    checkProgress(progress, { after: screen('Home') });
    expect(progress.status[0]).toBe('checked');
  });

  it('refuses FINISH while a sub-task with a predicate has not held, naming it; lets it through once it has', () => {
    const progress = newProgress(plan);
    checkProgress(progress, { after: screen('Dark theme') });
    const refusal = finishRefusal(progress, screen('Dark theme'));
    expect(refusal).toMatch(/^FINISH refused: sub-task 3 "Turn dark theme on" is not done: its check exists\(text="Dark theme is on"\) has not held \(now: fail/);
    // Sub-task 2 has no predicate and is still pending: only a check can refuse.
    expect(finishRefusal(progress, screen('Dark theme is on'))).toBeUndefined();
  });

  it('marks the planner\'s word as claimed, never over a check, and renders the vector', () => {
    const progress = newProgress(plan);
    checkProgress(progress, { after: screen('Dark theme') });
    claimProgress(progress, [1, 2, 9]);
    expect(progress.status).toEqual(['checked', 'claimed', 'pending']);
    expect(renderProgress(progress)).toBe([
      'Plan (✓ done by check, ? done by your word, · pending):',
      '1. ✓ Open Display [check: exists(text="Dark theme")]',
      '2. ? Say nothing',
      '3. · Turn dark theme on [check: exists(text="Dark theme is on")]',
    ].join('\n'));
  });

  it('carries checked sub-tasks over to a re-plan, as often as they were checked', () => {
    const old = newProgress(plan);
    checkProgress(old, { after: screen('Dark theme') });
    const next = newProgress(metaPlanReplySchema.parse({ subtasks: [{ name: 'Open Display', done: 'exists(text="Dark theme")' }, { name: 'Open Display', done: 'exists(text="Dark theme")' }, { name: 'Open Display', done: 'exists(text="Other")' }] }));
    carryOver(next, old);
    expect(next.status).toEqual(['checked', 'pending', 'pending']);
  });

  it('takes at most 5 sub-tasks and valid predicates only', () => {
    expect(metaPlanReplySchema.safeParse({ subtasks: Array.from({ length: 6 }, (_, index) => ({ name: `s${index}` })) }).success).toBe(false);
    const bad = metaPlanReplySchema.safeParse({ subtasks: [{ name: 'x', done: 'exists(text=' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.message).toMatch(/done is not a valid predicate/);
    expect(metaPlanReplySchema.safeParse({ subtasks: [{ name: 'x', done: 'checked(is=switch)' }] }).success).toBe(true);
  });
});
