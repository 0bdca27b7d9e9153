// Plays a task's reference solution directly on a Simulator, for the integration tests of
// tasks/sim: each target query is resolved with the verify layer's findNodes on the parsed
// page source and acted on by its bounds (tap at the centre, type into the focused field,
// swipe in the container, slide a SeekBar to `value` percent).
import { expect } from 'vitest';
import { Simulator, simApps, type SimSeedData } from '../../../src/sim/index.js';
import type { SolutionAction, Task } from '../../../src/tasks/task-schema.js';
import { boundsCentre, clipToScreen } from '../../../src/ui/bounds.js';
import { parseHierarchy } from '../../../src/ui/parse-hierarchy.js';
import type { UiNode, UiTree } from '../../../src/ui/ui-tree.js';
import { computeDelta } from '../../../src/verify/compute-delta.js';
import { evaluatePredicate } from '../../../src/verify/evaluate-predicate.js';
import { findNodes } from '../../../src/verify/find-nodes.js';
import { parsePredicate, parseQuery } from '../../../src/verify/parse-predicate.js';

/** The simulator keys seed data by app key (`clock`), tasks by package. */
function initialState(task: Task): Partial<SimSeedData> {
  const state: Record<string, unknown> = {};
  for (const [packageName, data] of Object.entries(task.start.state ?? {})) {
    const entry = simApps.find((candidate) => candidate.app.packageName === packageName);
    if (entry === undefined) throw new Error(`task ${task.id}: start.state names ${packageName}, which the simulator does not have`);
    state[entry.key] = data;
  }
  return state as Partial<SimSeedData>;
}

export function startSimulator(task: Task): Simulator {
  return new Simulator({ seed: task.start.seed ?? 1, initialState: initialState(task), ...(task.start.launch ? { startPackage: task.start.launch } : {}) });
}

export function observe(sim: Simulator): UiTree {
  return parseHierarchy(sim.pageSource('appium-uia2'), { sourceName: 'simulator' });
}

export function describeScreen(tree: UiTree): string {
  return tree.nodes
    .filter((node) => node.text !== '' || node.contentDesc !== '')
    .slice(0, 60)
    .map((node) => `${node.className.split('.').pop() ?? ''} text=${JSON.stringify(node.text)} desc=${JSON.stringify(node.contentDesc)} id=${node.resourceId.split('/').pop() ?? ''}`)
    .join('\n  ');
}

function resolve(tree: UiTree, target: string, where: string): UiNode {
  const found = findNodes(parseQuery(target), tree);
  const node = found.matches[0] === undefined ? undefined : tree.nodes[found.matches[0]];
  if (node === undefined) throw new Error(`${where}: no node matches ${target}${found.problem ? ` (${found.problem})` : ''} on screen ${tree.activity}:\n  ${describeScreen(tree)}`);
  return node;
}

function centre(sim: Simulator, node: UiNode): [number, number] {
  const [x, y] = boundsCentre(clipToScreen(node.bounds, sim.screen.width, sim.screen.height));
  return [Math.round(x), Math.round(y)];
}

/** The checkable node a toggle reads: the node itself or its single checkable descendant. */
function checkedOf(tree: UiTree, node: UiNode): boolean {
  if (node.checkable) return node.checked;
  const stack = [...node.children];
  const found: UiNode[] = [];
  while (stack.length > 0) {
    const child = tree.nodes[stack.pop() ?? -1];
    if (child === undefined) continue;
    if (child.checkable) found.push(child);
    stack.push(...child.children);
  }
  if (found.length !== 1) throw new Error(`toggle target ${node.className} "${node.text}" has ${found.length} checkable nodes, not one`);
  return found[0]?.checked ?? false;
}

function play(sim: Simulator, action: SolutionAction, where: string): string | undefined {
  const tree = observe(sim);
  switch (action.unit) {
    case 'click':
    case 'commit':
    case 'select':
      sim.tap(...centre(sim, resolve(tree, action.target, where)));
      return undefined;
    case 'long-press':
      sim.longPress(...centre(sim, resolve(tree, action.target, where)));
      return undefined;
    case 'toggle': {
      const node = resolve(tree, action.target, where);
      if (action.value === undefined || checkedOf(tree, node) !== action.value) sim.tap(...centre(sim, node));
      return undefined;
    }
    case 'fill': {
      const node = resolve(tree, action.target, where);
      if (node.className.endsWith('SeekBar')) {
        // A slider: `value` is the position in percent.
        const [left, , right] = node.bounds;
        const [x, y] = centre(sim, node);
        const to = Math.round(left + ((right - left - 1) * Number(action.value)) / 100);
        sim.swipe(x, y, Math.max(0, Math.min(sim.screen.width - 1, to)), y);
        return undefined;
      }
      sim.tap(...centre(sim, node));
      sim.clearText();
      sim.typeText(action.value);
      return undefined;
    }
    case 'scroll': {
      for (let attempt = 0; attempt < 12; attempt++) {
        const current = observe(sim);
        if (action.until !== undefined && findNodes(parseQuery(action.until), current).matches.length > 0) return undefined;
        const container = action.target === undefined ? current.nodes.find((node) => node.scrollable) : resolve(current, action.target, where);
        if (container === undefined) throw new Error(`${where}: no scrollable container on screen`);
        const [x, y] = centre(sim, container);
        const height = container.bounds[3] - container.bounds[1];
        const width = container.bounds[2] - container.bounds[0];
        const dy = Math.round(height * 0.3);
        const dx = Math.round(width * 0.3);
        if (action.direction === 'down') sim.swipe(x, y + dy, x, y - dy);
        else if (action.direction === 'up') sim.swipe(x, y - dy, x, y + dy);
        else if (action.direction === 'right') sim.swipe(x + dx, y, x - dx, y);
        else sim.swipe(x - dx, y, x + dx, y);
        if (action.until === undefined) return undefined;
      }
      throw new Error(`${where}: scrolled 12 times and ${action.until ?? ''} never appeared`);
    }
    case 'navigate':
      if (action.key !== undefined) sim.pressKey(action.key);
      else if (action.launch !== undefined) sim.launchApp(action.launch);
      return undefined;
    case 'finish':
      return action.answer ?? '';
  }
}

/** Plays the whole solution; returns the final screen and the answer of a `finish` unit. Step expectations must pass. */
export function playSolution(sim: Simulator, task: Task): { finalTree: UiTree; answer?: string } {
  let answer: string | undefined;
  for (const [stepIndex, step] of (task.solution ?? []).entries()) {
    for (const [actionIndex, action] of step.actions.entries()) {
      const where = `task ${task.id} step ${stepIndex + 1} ("${step.intent}") action ${actionIndex + 1} (${action.unit})`;
      const before = observe(sim);
      const result = play(sim, action, where);
      if (result !== undefined) answer = result;
      // Intents are screen-scoped (docs/architecture.md §2.4): only a step's last action may open a
      // dialog, menu or sheet; the oracle verifies the intent when the surface changes. The
      // soft keyboard that focusing a field brings up (it also shrinks the app window) does
      // not count.
      if (actionIndex < step.actions.length - 1 && !sim.isKeyboardShown()) {
        const opened = computeDelta(before, observe(sim)).surfacesAdded;
        expect(opened.map((surface) => surface.signature), `${where} opens a surface mid-step; end the step there`).toEqual([]);
      }
    }
    if (step.expect !== undefined) {
      const tree = observe(sim);
      const outcome = evaluatePredicate(parsePredicate(step.expect), { after: tree });
      expect(outcome.outcome, `task ${task.id} step ${stepIndex + 1} expect ${step.expect}: ${outcome.reason}\n  ${describeScreen(tree)}`).toBe('pass');
    }
  }
  const finalTree = observe(sim);
  return answer === undefined ? { finalTree } : { finalTree, answer };
}
