import type { Screen } from '../agent/agent-session.js';
import type { ControlUnit } from '../perception/control-unit.js';
import { stableHashHex } from '../util/stable-hash.js';

/** The observe tool's result as data (`observeOutputShape`). */
export interface ScreenData {
  screen: string;
  app: string;
  activity: string;
  activityStack?: string[];
  view: string;
  edges: string[];
  units?: { id: string; type: string; label: string; state: ControlUnit['state']; block: string }[];
  xml?: string;
  screenshots: number;
}

/**
 * A screen as `observe` returns it: a screen id (hash of the XML), the foreground app (and
 * its task's activity stack when the device told it), the planner view, the SCG edges
 * `from>to`, and the screenshots taken so far; the units as
 * data and the XML only when asked. Pure.
 */
export function screenData(screen: Screen, screenshots: number, options: { readonly units?: boolean; readonly xml?: boolean } = {}): ScreenData {
  const { perception } = screen;
  const data: ScreenData = {
    screen: stableHashHex(screen.xml),
    app: perception.tree.packageName,
    activity: perception.tree.activity,
    ...(perception.tree.activityStack.length > 0 ? { activityStack: [...perception.tree.activityStack] } : {}),
    view: perception.view,
    edges: perception.scg.edges.map(([from, to]) => `${from}>${to}`),
    screenshots,
  };
  if (options.units) data.units = perception.units.map((unit) => ({ id: unit.id, type: unit.type, label: unit.label, state: unit.state, block: unit.block }));
  if (options.xml) data.xml = screen.xml;
  return data;
}
