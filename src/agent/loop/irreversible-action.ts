import type { ControlUnit } from '../../perception/control-unit.js';
import type { Perception } from '../../perception/perceive.js';

/** The words that mark an action as one that cannot be undone, whatever the device profile adds. */
export const irreversibleWords: readonly string[] = ['delete', 'pay', 'buy', 'send', 'uninstall', 'factory reset'];

/** Unit types that commit by a tap: only these can trigger what a label or a dialog announces. */
const tapTypes: ReadonlySet<ControlUnit['type']> = new Set(['click', 'commit', 'select', 'long-press']);

/** An action a person should confirm before it runs: the unit, and the words that say why. */
export interface IrreversibleAction {
  readonly unit: string;
  readonly type: ControlUnit['type'];
  readonly label: string;
  /** Why it cannot be undone, e.g. `its label says "delete"` or `its dialog "Delete alarm?" says "delete"`. */
  readonly reason: string;
}

function wordPattern(words: readonly string[]): RegExp {
  const escaped = words.map((word) => word.trim().toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')).filter(Boolean);
  return new RegExp(`(?<![\\p{L}\\p{N}])(${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
}

/** The texts of the surface (dialog, sheet) a unit sits on: its title, its text rows and the other units' labels; none when it is on no surface. */
function surfaceTexts(unit: ControlUnit, perception: Perception): string[] {
  const block = perception.plannerView.blocks.find((candidate) => candidate.surface && candidate.items.some((item) => item.kind === 'unit' && item.id === unit.id));
  if (!block) return [];
  return [block.label, ...block.items.flatMap((item) => (item.kind === 'text' ? [item.text] : item.id === unit.id ? [] : [item.label]))].filter((text) => text !== '');
}

/**
 * Whether acting on `unit` (on the screen `perception`) cannot be undone: a tap-like unit
 * whose label says one of {@link irreversibleWords} or of `extraWords` (a device profile's
 * `irreversible` list), or a commit (OK, Confirm) on a dialog whose title or text says one
 * ("Delete alarm?" → OK). Words match whole (`send` does not match `sender`). Returns the
 * action with the reason, or undefined. Pure.
 */
export function irreversibleAction(unit: ControlUnit, perception: Perception, extraWords: readonly string[] = []): IrreversibleAction | undefined {
  if (!tapTypes.has(unit.type)) return undefined;
  const pattern = wordPattern([...irreversibleWords, ...extraWords]);
  const said = pattern.exec(unit.label);
  const action = { unit: unit.id as string, type: unit.type, label: unit.label };
  if (said) return { ...action, reason: `its label says "${said[1]!.toLowerCase()}"` };
  if (unit.type !== 'commit') return undefined;
  for (const text of surfaceTexts(unit, perception)) {
    const found = pattern.exec(text);
    if (found) return { ...action, reason: `its dialog ${JSON.stringify(text.length > 60 ? `${text.slice(0, 59)}…` : text)} says "${found[1]!.toLowerCase()}"` };
  }
  return undefined;
}
