// Admissibility with typed preconditions on real screens: the first unit must be enabled,
// uncovered and on screen; a later one is left to the screen the earlier units leave.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { admissibleCommitment } from '../../../src/agent/loop/admissible-commitment.js';
import type { Screen } from '../../../src/agent/agent-session.js';
import { perceive } from '../../../src/perception/perceive.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import { phaseFixture, suiteTask } from './senseact-fixture.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures');

function screenOf(relative: string): Screen {
  const xml = readFileSync(path.join(fixtures, relative), 'utf8');
  return { xml, perception: perceive(parseHierarchy(xml, { sourceName: relative })) };
}

function idOf(screen: Screen, label: string): string {
  const unit = screen.perception.units.find((candidate) => candidate.label.startsWith(label));
  if (!unit) throw new Error(`no unit "${label}" in\n${screen.perception.view}`);
  return unit.id;
}

const settings = screenOf('dump-corpus/uiautomator-dump/Untergang1-AppAgent__settings__task_system_2024-11-12_23-54-19_5.xml');
const survey = screenOf('dump-corpus/uiautomator-dump/LukasHohl-AppAgent__chrome__task_YouTube_2024-12-06_13-18-54_7.xml');
const carousel = screenOf('preconditions/GeniusPudding-droidbot_multidevice__chrome__mal_state_2021-12-14_021722.xml');
const { context } = await phaseFixture(suiteTask('settings-dark-theme'));

describe('admissibleCommitment: typed preconditions', () => {
  it('rejects a disabled first unit with its reason; an enabled, visible one is admitted', () => {
    const disabled = admissibleCommitment(context, [{ unit: idOf(settings, 'Non-carrier data usage') }], settings, new Set());
    expect(disabled).toEqual({ ok: false, reason: expect.stringMatching(/"Non-carrier data usage" is disabled and would ignore the action/) });
    const enabled = admissibleCommitment(context, [{ unit: idOf(settings, 'Saved networks') }], settings, new Set());
    expect(enabled.ok).toBe(true);
  });

  it('rejects a covered first unit, and admits it after a unit of the dialog that covers it', () => {
    const covered = admissibleCommitment(context, [{ unit: idOf(survey, 'Casting') }], survey, new Set());
    expect(covered.ok === false && covered.reason).toMatch(/"Casting" is covered by a dialog or sheet/);
    const afterDismiss = admissibleCommitment(context, [{ unit: idOf(survey, 'No thanks') }, { unit: idOf(survey, 'Casting') }], survey, new Set());
    expect(afterDismiss.ok).toBe(true);
  });

  it('rejects an off-screen first unit and admits a card in full view', () => {
    const sliver = admissibleCommitment(context, [{ unit: idOf(carousel, '打2劑遭突破感染') }], carousel, new Set());
    expect(sliver.ok === false && sliver.reason).toMatch(/is off-screen \(only its edge shows\); scroll it into view first/);
    expect(admissibleCommitment(context, [{ unit: idOf(carousel, '3萬人打3針') }], carousel, new Set()).ok).toBe(true);
  });
});
