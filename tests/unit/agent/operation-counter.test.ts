import { describe, expect, it } from 'vitest';
import { OperationCounter } from '../../../src/agent/operation-counter.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';

const screen = (label: string, clock = '12:00') =>
  parseHierarchy(`<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" text="" content-desc="" resource-id="" clickable="false" enabled="true" bounds="[0,0][1080,2400]"><node class="android.widget.TextView" package="com.android.systemui" text="${clock}" content-desc="" resource-id="com.android.systemui:id/clock" clickable="false" enabled="true" bounds="[0,0][200,60]"/><node class="android.widget.Button" package="com.example" text="${label}" content-desc="" resource-id="" clickable="true" enabled="true" bounds="[0,300][1080,450]"/></node></hierarchy>`);

describe('OperationCounter', () => {
  it('counts an operation effective when a later observation shows a changed screen', () => {
    const counter = new OperationCounter();
    counter.acted(screen('Save'));
    counter.observed(screen('Save'));
    expect(counter.totals()).toEqual({ total: 1, effective: 0 });
    // A late effect caught by a settle re-observation still counts.
    counter.observed(screen('Saved'));
    expect(counter.totals()).toEqual({ total: 1, effective: 1 });
  });

  it('does not count an operation whose screen never changed, nor one observed only after the next operation', () => {
    const counter = new OperationCounter();
    counter.acted(screen('Save'));
    counter.observed(screen('Save'));
    counter.acted(screen('Save'));
    counter.observed(screen('Done'));
    expect(counter.totals()).toEqual({ total: 2, effective: 1 });
  });

  it('starts at zero and ignores observations before any operation', () => {
    const counter = new OperationCounter();
    counter.observed(screen('Save'));
    expect(counter.totals()).toEqual({ total: 0, effective: 0 });
  });
});
