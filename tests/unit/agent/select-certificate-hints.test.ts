import { describe, expect, it } from 'vitest';
import { openIntent, selectCertificateHints } from '../../../src/agent/planning/select-certificate-hints.js';
import { perceive } from '../../../src/perception/perceive.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { certificateScope, renderCertificateHint, type Certificate } from '../../../src/verify/certificate.js';
import { fakeDump } from '../ui/dump-builder.js';

const perception = perceive(parseHierarchy(fakeDump({
  bounds: [0, 0, 1080, 2400], package: 'com.android.settings', children: [
    { text: 'Bluetooth', bounds: [0, 100, 1080, 200] },
    { clickable: true, checkable: true, class: 'android.widget.Switch', text: 'Use Bluetooth', bounds: [0, 300, 1080, 400] },
    { clickable: true, text: 'Pair new device', bounds: [0, 500, 1080, 600] },
  ],
}), { packageName: 'com.android.settings', activity: '.SubSettings' }));
const scope = certificateScope(perception.tree);

function certificate(overrides: { intent: string; label: string; unitType?: Certificate['action']['unitType']; outcome?: 'pass' | 'fail'; strength?: 'weak' | 'strong'; effect?: Certificate['effect']['label']; scope?: string }): Certificate {
  return {
    version: 1, id: `c${overrides.intent.length}${overrides.label.length}`, intent: overrides.intent, package: 'com.android.settings', scope: overrides.scope ?? scope, key: '',
    state: [], prereq: [],
    action: { unitType: overrides.unitType ?? 'toggle', label: overrides.label },
    effect: { label: overrides.effect ?? 'no-change', summary: 'nothing changed', errors: [], outcome: overrides.outcome ?? 'fail', ...(overrides.strength ? { strength: overrides.strength } : {}) },
    confidence: 'high',
  };
}
const hit = (value: Certificate) => ({ certificate: value, score: 1 });

describe('openIntent: what retrieval keys on', () => {
  it('is the last intent while it has not passed, else the task', () => {
    expect(openIntent([], 'Turn Bluetooth off')).toBe('Turn Bluetooth off');
    expect(openIntent([{ intent: 'Open Bluetooth', outcome: 'fail', note: '' }], 'Turn Bluetooth off')).toBe('Open Bluetooth');
    expect(openIntent([{ intent: 'Open Bluetooth', outcome: 'inconclusive', note: '' }], 'Turn Bluetooth off')).toBe('Open Bluetooth');
    // Negative: a passed intent is done; the next one is not known yet, the task is.
    expect(openIntent([{ intent: 'Open Bluetooth', outcome: 'pass', note: '' }], 'Turn Bluetooth off')).toBe('Turn Bluetooth off');
  });
});

describe('certificate hints for the planner', () => {
  it('renders a certificate as one short line: outcome, action, effect', () => {
    expect(renderCertificateHint(certificate({ intent: 'Switch Bluetooth off', label: 'Use Bluetooth' }))).toBe('fail: toggle "Use Bluetooth" → no change');
    expect(renderCertificateHint({ ...certificate({ intent: 'Open', label: 'Pair new device', unitType: 'click', outcome: 'pass', strength: 'weak', effect: 'partial-change' }), effect: { label: 'partial-change', summary: 'text "A" → "B"; removed "C"', errors: ['toast: Name required'], outcome: 'pass', strength: 'weak' } }))
      .toBe('pass (weak): click "Pair new device" → changed text "A" → "B"; "toast: Name required"');
  });

  it('shows a warning written on this screen about a unit it shows', () => {
    const warning = certificate({ intent: 'Switch Bluetooth off', label: 'Use Bluetooth' });
    expect(selectCertificateHints([hit(warning)], { perception, history: [] })).toEqual(['fail: toggle "Use Bluetooth" → no change']);
  });

  it('leaves out what adds nothing here: another page, a unit not shown, what the history already says, a strong pass, a repeat', () => {
    const warning = certificate({ intent: 'Switch Bluetooth off', label: 'Use Bluetooth' });
    const otherPage = certificate({ intent: 'Switch Wi-Fi off', label: 'Use Bluetooth', scope: 'Settings "Network"' });
    const notShown = certificate({ intent: 'Turn on NFC', label: 'NFC' });
    const strongPass = certificate({ intent: 'Open pairing', label: 'Pair new device', unitType: 'click', outcome: 'pass', strength: 'strong', effect: 'new-page' });
    const repeat = certificate({ intent: 'Turn Bluetooth off', label: 'Use Bluetooth' });
    // An intent the history shows done, or a certificate this run wrote (its history entry is in the prompt).
    const passed = [{ intent: 'switch bluetooth OFF', outcome: 'pass' as const, note: '' }];
    expect(selectCertificateHints([hit(warning), hit(otherPage), hit(notShown), hit(strongPass)], { perception, history: passed })).toEqual([]);
    const failed = [{ intent: 'switch bluetooth OFF', outcome: 'fail' as const, note: '' }];
    expect(selectCertificateHints([hit(warning)], { perception, history: failed, written: new Set([warning.id]) })).toEqual([]);
    // Negative control: the same open intent's failure written by another run is a past failure on this scope, worth showing.
    expect(selectCertificateHints([hit(warning)], { perception, history: failed, written: new Set() })).toEqual(['fail: toggle "Use Bluetooth" → no change']);
    expect(selectCertificateHints([hit(warning), hit(repeat), hit(otherPage), hit(notShown), hit(strongPass)], { perception, history: [] })).toEqual(['fail: toggle "Use Bluetooth" → no change']);
  });
});
