import type { ControlUnit, UnitId } from './control-unit.js';
import { frontier, type Scg } from './scg.js';

/** What `renderScg` needs besides the graph. */
export interface ScgViewInput {
  /** Units already done on this surface (verified); fields that hold a value count as done for their commit. */
  readonly done: ReadonlySet<UnitId>;
  /** Units the view's row budget left out: the planner cannot name them, so the lines do not either. */
  readonly hidden: ReadonlySet<string>;
}

/**
 * The SCG as a few short lines for the planner (docs/architecture.md §2.3–2.4): one line per group
 * of edges, naming units by id only (their labels are in the view), and one `frontier`
 * line when some shown unit waits: every shown unit is on the frontier but those named
 * (their predecessors are not done). A commit's
 * form fields are alternatives (`a|b|c → save`: one of them first); other edges are all
 * required (`picker → option1 option2`). Empty when the screen shows no edge between
 * units the view shows, so a screen without dependencies costs nothing. Deterministic.
 */
export function renderScg(scg: Scg, input: ScgViewInput): string {
  const shown = (id: UnitId): boolean => !input.hidden.has(id);
  const unitById = new Map<UnitId, ControlUnit>(scg.units.map((unit) => [unit.id, unit]));
  const before = new Map<UnitId, UnitId[]>();
  for (const [from, to] of scg.edges) {
    if (shown(from) && shown(to)) (before.get(to) ?? before.set(to, []).get(to)!).push(from);
  }
  if (before.size === 0) return '';
  const lines: string[] = [];
  // Commits, each with its alternative fields; other targets grouped by the one unit they wait for.
  const byPredecessors = new Map<string, UnitId[]>();
  for (const [to, froms] of before) {
    if (unitById.get(to)?.type === 'commit') {
      lines.push(`${froms.join('|')} → ${to}`);
      continue;
    }
    const key = froms.join(' ');
    (byPredecessors.get(key) ?? byPredecessors.set(key, []).get(key)!).push(to);
  }
  for (const [froms, targets] of byPredecessors) lines.push(`${froms} → ${targets.join(' ')}`);
  const done = new Set(input.done);
  for (const unit of scg.units) if (unit.type === 'fill' && (unit.state.value ?? '') !== '') done.add(unit.id);
  const ready = new Set(frontier(scg, done).map((unit) => unit.id));
  const waiting = [...before.keys()].filter((id) => !ready.has(id) && !done.has(id));
  if (waiting.length > 0) lines.push(`frontier: all but ${waiting.join(' ')}`);
  return lines.join('\n');
}
