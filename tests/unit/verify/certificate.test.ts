import { describe, expect, it } from 'vitest';
import type { BlockId, ControlUnit, UnitId } from '../../../src/perception/control-unit.js';
import type { NodeId } from '../../../src/ui/ui-tree.js';
import { buildCertificate, certificateSchema, renderCertificate } from '../../../src/verify/certificate.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { hierarchy, node, nodeWhere, readDump, screen, setAttribute } from './screens.js';

const settingsXml = readDump('settings');
const before = screen(settingsXml, { activity: 'com.android.settings.SubSettings' });
const after = screen(setAttribute(settingsXml, 'switchWidget', 'checked', 'true'), { activity: 'com.android.settings.SubSettings' });
const toggle = nodeWhere(before, (candidate) => candidate.checkable);
const unit = {
  id: 'n1a2b' as UnitId, type: 'toggle', label: 'Airplane mode', primary: 'n1a2b' as NodeId,
  members: [{ nodeId: 'n1a2b' as NodeId, node: toggle.index, bounds: toggle.bounds, className: toggle.className, resourceId: toggle.resourceId, text: '', contentDesc: '' }],
  bounds: toggle.bounds, tap: [0, 0], affordances: ['checkable'], block: 'b1' as BlockId, state: { enabled: true, checked: false },
} as ControlUnit;

describe('buildCertificate', () => {
  const input = { intent: 'Turn on airplane mode', before, after, unit, delta: computeDelta(before, after), outcome: 'pass' as const, verifiedProgrammatically: true };

  it('is deterministic and valid by its own schema', () => {
    const first = buildCertificate(input);
    const second = buildCertificate({ ...input, delta: computeDelta(before, after) });
    expect(second).toEqual(first);
    expect(certificateSchema.parse(JSON.parse(JSON.stringify(first)))).toEqual(first);
  });

  it('fills the DSL fields from the screens, the unit and the delta', () => {
    const certificate = buildCertificate(input);
    expect(certificate).toMatchObject({
      package: 'com.android.settings',
      scope: 'SubSettings "Network & internet"',
      key: 'com.android.settings | SubSettings "Network & internet" | Turn on airplane mode',
      prereq: ['"Airplane mode" unchecked'],
      action: { unitType: 'toggle', label: 'Airplane mode' },
      effect: { label: 'partial-change', outcome: 'pass', errors: [] },
      confidence: 'high',
    });
    expect(certificate.effect.summary).toContain('off → on');
    expect(certificate.state).toContain('toggle "Airplane mode"');
    expect(buildCertificate({ ...input, verifiedProgrammatically: false }).confidence).toBe('low');
    expect(buildCertificate({ ...input, after: before, delta: computeDelta(before, before), outcome: 'fail' }).effect).toMatchObject({ label: 'no-change', summary: 'nothing changed' });
  });

  it('never stores a value typed into a password field', () => {
    const secretUnit = { ...unit, type: 'fill', label: 'Password', state: { enabled: true, password: true } } as ControlUnit;
    const certificate = buildCertificate({ ...input, unit: secretUnit, args: { value: 'hunter2' } });
    expect(certificate.action.value).toBe('[redacted]');
    expect(JSON.stringify(certificate)).not.toContain('hunter2');
    expect(buildCertificate({ ...input, args: { value: 'Gym' } }).action.value).toBe('Gym');
    const field = (text: string) => screen(hierarchy(node({ class: 'android.widget.FrameLayout', bounds: '[0,0][1000,1000]' }, node({ class: 'android.widget.EditText', text, password: true, bounds: '[0,0][800,100]' }))));
    const empty = field('');
    const typed = field('hunter2');
    const passwordUnit = { ...secretUnit, members: [{ ...unit.members[0]!, node: 1 }] } as ControlUnit;
    const fromDelta = buildCertificate({ ...input, before: empty, after: typed, unit: passwordUnit, delta: computeDelta(empty, typed), args: { value: 'hunter2' } });
    expect(fromDelta.effect.summary).toBe('text of a password field changed');
    expect(JSON.stringify(fromDelta)).not.toContain('hunter2');
  });

  it('records how strong the evidence of a pass was, and shows it', () => {
    expect(buildCertificate({ ...input, strength: 'strong' }).effect.strength).toBe('strong');
    expect(renderCertificate(buildCertificate({ ...input, strength: 'weak' }))).toMatch(/effect: .*\(weak evidence\)$/m);
    // A failed intent has no evidence strength.
    expect(buildCertificate({ ...input, outcome: 'fail', strength: 'weak' }).effect.strength).toBeUndefined();
  });

  it('renders the DSL text', () => {
    const text = renderCertificate(buildCertificate(input));
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^cert c[0-9a-f]{8} pass$/),
      '  intent: Turn on airplane mode',
      '  scope: com.android.settings SubSettings "Network & internet"',
      expect.stringMatching(/^ {2}state: .*toggle "Airplane mode"$/),
      '  prereq: "Airplane mode" unchecked',
      '  action: toggle "Airplane mode"',
      expect.stringMatching(/^ {2}effect: partial-change: checked .*off → on$/),
      '  confidence: high',
    ]);
  });
});
