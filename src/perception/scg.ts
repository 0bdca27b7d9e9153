import type { Block, BlockId, ControlUnit, EdgeViolation, ScgEdge, UnitId, UnitType } from './control-unit.js';

/** The class of state change each unit type is expected to cause (docs/architecture.md §2.3 `Δτ`). */
export type ExpectedChange = 'any-change' | 'text-changed' | 'checked-flipped' | 'selection-changed' | 'content-shifted' | 'surface-or-selection' | 'surface-changed-or-sealed' | 'screen-changed' | 'none';

/** `Δτ` per unit type. The verifier's contracts refine these; this table is what the SCG declares. */
export const expectedChangeByType: Readonly<Record<UnitType, ExpectedChange>> = {
  click: 'any-change',
  fill: 'text-changed',
  toggle: 'checked-flipped',
  select: 'selection-changed',
  scroll: 'content-shifted',
  'long-press': 'surface-or-selection',
  commit: 'surface-changed-or-sealed',
  navigate: 'screen-changed',
  finish: 'none',
};

/** Structured Control Graph `SCG = (U, E, T, Δ)`: units, dependency edges, and `Δτ` per type. */
export interface Scg {
  readonly units: readonly ControlUnit[];
  /** Edges `from → to`, sorted by the document order of `to`, then of `from`. */
  readonly edges: readonly ScgEdge[];
  readonly expected: Readonly<Record<UnitType, ExpectedChange>>;
}

const formTypes: ReadonlySet<UnitType> = new Set<UnitType>(['fill', 'toggle', 'select']);

/**
 * Builds the SCG with the deterministic edges the UI shows (docs/architecture.md §2.3):
 * - form → commit: when the commit's block (a surface counts as one block) is a form —
 *   it has at least one fill unit — every fill/toggle/select in it comes before that
 *   commit; when the commit's block has no form units at all (a Save in the toolbar),
 *   the fill units of the same window's non-surface blocks do, with the toggles/selects
 *   of the blocks that hold them;
 * - picker → option: a Spinner whose dropdown surface is open below or above it comes
 *   before every select unit in that surface.
 */
export function buildScg(units: readonly ControlUnit[], blocks: readonly Block[], windowOf: (unit: ControlUnit) => number): Scg {
  const blockById = new Map<BlockId, Block>(blocks.map((block) => [block.id, block]));
  const position = new Map<UnitId, number>(units.map((unit, index) => [unit.id, index]));
  const edges: ScgEdge[] = [];
  const seen = new Set<string>();
  const add = (from: ControlUnit, to: ControlUnit): void => {
    const key = `${from.id}>${to.id}`;
    if (from.id === to.id || seen.has(key)) return;
    seen.add(key);
    edges.push([from.id, to.id]);
  };
  const onScreen = units.filter((unit) => unit.tap !== null);
  for (const commit of onScreen) {
    if (commit.type !== 'commit') continue;
    const block = blockById.get(commit.block);
    const sameBlock = onScreen.filter((unit) => unit.block === commit.block && formTypes.has(unit.type));
    if (sameBlock.length > 0 || block?.surface) {
      // A form needs something to type: a list of switches with an "Add" button is not one.
      if (sameBlock.some((unit) => unit.type === 'fill' && !isSearchField(unit))) for (const unit of sameBlock) add(unit, commit);
      continue;
    }
    const window = windowOf(commit);
    const formBlocks = new Set<BlockId>();
    for (const unit of onScreen) {
      if (unit.type === 'fill' && !isSearchField(unit) && windowOf(unit) === window && !blockById.get(unit.block)?.surface) formBlocks.add(unit.block);
    }
    for (const unit of onScreen) if (formBlocks.has(unit.block) && formTypes.has(unit.type)) add(unit, commit);
  }
  for (const spinner of onScreen) {
    if (spinner.type !== 'select' || !spinner.members.some((member) => /Spinner$/.test(member.className))) continue;
    for (const block of blocks) {
      if (!block.surface || block.id === spinner.block || !anchoredTo(block.bounds, spinner.bounds)) continue;
      for (const unit of onScreen) if (unit.block === block.id && unit.type === 'select') add(spinner, unit);
    }
  }
  edges.sort((a, b) => position.get(a[1])! - position.get(b[1])! || position.get(a[0])! - position.get(b[0])!);
  return { units, edges, expected: expectedChangeByType };
}

/** A search box filters what is shown; it is not a field of a form that a commit saves. */
function isSearchField(unit: ControlUnit): boolean {
  return /search/i.test(`${unit.label} ${unit.state.hint ?? ''} ${unit.members[0]?.resourceId ?? ''}`);
}

/** A dropdown is anchored to its spinner: it overlaps it horizontally and starts at or near its top or bottom edge. */
function anchoredTo(dropdown: readonly number[], spinner: readonly number[]): boolean {
  const horizontal = Math.min(dropdown[2]!, spinner[2]!) - Math.max(dropdown[0]!, spinner[0]!) > 0;
  const slack = Math.max(8, (spinner[3]! - spinner[1]!) / 2);
  const below = Math.abs(dropdown[1]! - spinner[3]!) <= slack || Math.abs(dropdown[1]! - spinner[1]!) <= slack;
  const above = Math.abs(dropdown[3]! - spinner[1]!) <= slack;
  return horizontal && (below || above);
}

function predecessors(scg: Scg): Map<UnitId, UnitId[]> {
  const map = new Map<UnitId, UnitId[]>();
  for (const [from, to] of scg.edges) (map.get(to) ?? map.set(to, []).get(to)!).push(from);
  return map;
}

/** Units not yet done whose predecessors are all done, in unit order. */
export function frontier(scg: Scg, done: ReadonlySet<UnitId>): ControlUnit[] {
  const before = predecessors(scg);
  return scg.units.filter((unit) => {
    if (done.has(unit.id)) return false;
    const needed = before.get(unit.id) ?? [];
    // A commit's form fields are alternatives (see checkCommitment); other edges are all required.
    return unit.type === 'commit' && needed.length > 0 ? needed.some((from) => done.has(from)) : needed.every((from) => done.has(from));
  });
}

/** Outcome of `checkCommitment`: admissible, or the first violated edge / unknown unit. */
export type CommitmentCheck =
  | { readonly admissible: true }
  | { readonly admissible: false; readonly kind: 'edge'; readonly violation: EdgeViolation; readonly reason: string }
  | { readonly admissible: false; readonly kind: 'unknown-unit'; readonly unitId: UnitId; readonly position: number; readonly reason: string };

/**
 * A commitment (ordered unit ids) is admissible when every predecessor of each unit is
 * earlier in the commitment or already verified (docs/architecture.md §2.4) — except that a
 * `commit` unit's form predecessors are alternatives, not all required: a form has
 * optional fields, so one of them earlier, verified, or (a field) already holding a
 * value is enough. Otherwise returns the first violated edge with the position of the
 * unit that needed it, or the first id that is not a unit of this screen. Expected
 * outcomes, so returned, never thrown.
 */
export function checkCommitment(scg: Scg, unitIds: readonly UnitId[], verified: ReadonlySet<UnitId>): CommitmentCheck {
  const unitById = new Map(scg.units.map((unit) => [unit.id, unit]));
  const before = predecessors(scg);
  const earlier = new Set<UnitId>();
  const done = (from: UnitId): boolean => earlier.has(from) || verified.has(from);
  for (let position = 0; position < unitIds.length; position++) {
    const unitId = unitIds[position]!;
    const unit = unitById.get(unitId);
    if (!unit) {
      return { admissible: false, kind: 'unknown-unit', unitId, position, reason: `unit ${unitId} (position ${position}) is not on this screen; choose ids from the current view` };
    }
    const needed = before.get(unitId) ?? [];
    if (unit.type === 'commit' && needed.length > 0) {
      const filled = (from: UnitId): boolean => (unitById.get(from)?.state.value ?? '') !== '';
      if (!needed.some((from) => done(from) || filled(from))) {
        const from = needed[0]!;
        const reason = `${unitId} (position ${position}) commits a form none of whose fields (${needed.join(', ')}) is filled, earlier in the commitment or verified; put the field(s) to change before it`;
        return { admissible: false, kind: 'edge', violation: { edge: [from, unitId], position, reason }, reason };
      }
    } else {
      for (const from of needed) {
        if (done(from)) continue;
        const reason = `${unitId} (position ${position}) depends on ${from}, which is neither earlier in the commitment nor verified; put ${from} before it`;
        return { admissible: false, kind: 'edge', violation: { edge: [from, unitId], position, reason }, reason };
      }
    }
    earlier.add(unitId);
  }
  return { admissible: true };
}

/** A proposed edge that `addEdges` refused, and why. */
export interface RejectedEdge {
  readonly edge: ScgEdge;
  readonly reason: 'unknown-unit' | 'self-loop' | 'duplicate' | 'cycle';
  readonly detail: string;
}

/**
 * Adds edges proposed by an LLM, one at a time in the given order, accepting each only
 * if both ends are units of this graph, it is new, and the graph stays acyclic. Returns
 * the new graph (the input is not changed) and what was rejected and why.
 */
export function addEdges(scg: Scg, proposed: readonly ScgEdge[]): { scg: Scg; accepted: ScgEdge[]; rejected: RejectedEdge[] } {
  const known = new Set(scg.units.map((unit) => unit.id));
  const successors = new Map<UnitId, Set<UnitId>>();
  const keys = new Set<string>();
  for (const [from, to] of scg.edges) {
    (successors.get(from) ?? successors.set(from, new Set()).get(from)!).add(to);
    keys.add(`${from}>${to}`);
  }
  const reaches = (start: UnitId, goal: UnitId): boolean => {
    const stack = [start];
    const visited = new Set<UnitId>();
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (current === goal) return true;
      if (visited.has(current)) continue;
      visited.add(current);
      for (const next of successors.get(current) ?? []) stack.push(next);
    }
    return false;
  };
  const accepted: ScgEdge[] = [];
  const rejected: RejectedEdge[] = [];
  for (const edge of proposed) {
    const [from, to] = edge;
    if (!known.has(from) || !known.has(to)) {
      rejected.push({ edge, reason: 'unknown-unit', detail: `${known.has(from) ? to : from} is not a unit of this screen` });
    } else if (from === to) {
      rejected.push({ edge, reason: 'self-loop', detail: `${from} cannot depend on itself` });
    } else if (keys.has(`${from}>${to}`)) {
      rejected.push({ edge, reason: 'duplicate', detail: `${from} → ${to} is already an edge` });
    } else if (reaches(to, from)) {
      rejected.push({ edge, reason: 'cycle', detail: `${to} already comes before ${from}; ${from} → ${to} would close a cycle` });
    } else {
      (successors.get(from) ?? successors.set(from, new Set()).get(from)!).add(to);
      keys.add(`${from}>${to}`);
      accepted.push([from, to]);
    }
  }
  return { scg: { ...scg, edges: [...scg.edges, ...accepted] }, accepted, rejected };
}
