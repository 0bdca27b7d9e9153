// A scripted MCP client that knows only the tools observe / act / check and plays a sim
// task's reference solution (tasks/sim/*.yaml `solution:`) through `senseact mcp`, the way
// the oracle policy (src/agent/policies/oracle/oracle-guide.ts) commits it: per reference step, the
// actions whose targets the current screen shows, up to a scroll, a navigation or a
// commit; the step's expectation only on the commitment that completes the step; a
// scroll-until is skipped once its target shows; a step whose effect already shows is
// done. It reads nothing but the tools' answers. Results are oracle results (the
// reference solution plays) and are labelled so by the script that prints them.
//
// Beside it, `loopVerdicts` reads the loop's verdicts from a run's trace (runTask with the
// oracle policy on the same simulator seed: what `senseact bench --policy oracle` runs),
// and `playTask` plays one task both ways and compares the verdicts step by step.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runTask } from '../src/agent/run-task.js';
import { simulatorForTask } from '../src/bench/simulator-for-task.js';
import { loadDeviceProfile } from '../src/device/device-profile.js';
import { SimDevice } from '../src/device/sim-device.js';
import { createSenseActMcpServer } from '../src/mcp/create-mcp-server.js';
import { McpDeviceSession } from '../src/mcp/mcp-device-session.js';
import type { SolutionAction, Task } from '../src/tasks/task-schema.js';
import { evaluateSuccess } from '../src/tasks/evaluate-success.js';
import { parseHierarchy } from '../src/ui/parse-hierarchy.js';
import { readTrace } from '../src/trace/read-trace.js';

/** One executed commitment's verdict: the units it ran (ids) and the intent's outcome. */
export interface StepVerdict {
  readonly units: readonly string[];
  readonly verdict: string;
}

/** What the scripted client did with one task. */
export interface ClientPlay {
  readonly verdicts: StepVerdict[];
  /** Calls per tool. */
  readonly calls: Record<string, number>;
  /** Confirmations the server asked for (accepted). */
  readonly confirmations: number;
  /** The answer the reference solution gives, for a question. */
  readonly answer?: string;
  /** Why the client stopped early, when it did. */
  readonly stuck?: string;
}

type Item = Record<string, unknown>;

/** How often a failed commitment is tried again before the client gives up (the loop's repeated-action guard is 5). */
const maxTries = 3;

class ToolClient {
  readonly calls: Record<string, number> = {};
  view = '';

  constructor(private readonly client: Client) {}

  async call(name: 'observe' | 'act' | 'check', args: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
    const result = await this.client.callTool({ name, arguments: args }) as CallToolResult;
    const data = (result.structuredContent ?? {}) as Record<string, unknown>;
    if (name === 'observe') this.view = String(data['view'] ?? '');
    if (name === 'act') this.view = String((data['after'] as Record<string, unknown> | undefined)?.['view'] ?? this.view);
    return data;
  }

  async holds(predicate: string): Promise<boolean> {
    return (await this.call('check', { predicate }))['holds'] === 'true';
  }

  /** The first scroll unit the last view shows (`[n1234] scroll ...`). */
  scrollUnit(): string | undefined {
    return /\[(n[0-9a-f]+)\] scroll\b/.exec(this.view)?.[1];
  }
}

/** A reference action as an act item: a target query or a pseudo unit, with the arguments of its kind. */
function itemFor(action: SolutionAction, client: ToolClient): Item | undefined {
  switch (action.unit) {
    case 'navigate':
      return action.key === 'back' ? { unit: 'nav-back' } : action.key === 'home' ? { unit: 'nav-home' } : { unit: 'nav-launch', value: action.launch };
    case 'scroll': {
      const target = action.target ?? client.scrollUnit();
      if (target === undefined) return undefined;
      return { ...(action.target === undefined ? { unit: target } : { target }), direction: action.direction };
    }
    case 'fill': return { target: action.target, value: action.value };
    case 'toggle': return { target: action.target, ...(action.value === undefined ? {} : { checked: action.value }) };
    case 'click':
    case 'select': return { target: action.target, select: true };
    case 'long-press': return { target: action.target, longPress: true };
    case 'commit': return { target: action.target };
    case 'finish': return undefined;
  }
}

/** Ends a commitment: what opens another screen, or a scroll that may have to repeat. */
function endsCommitment(action: SolutionAction): boolean {
  return action.unit === 'scroll' || action.unit === 'navigate' || action.unit === 'commit';
}

/**
 * Plays `task`'s reference solution through the tools of a connected client. Returns the
 * verdict of every act that ran (refusals are not verdicts: nothing ran).
 */
export async function playReference(client: Client, task: Task, confirmations: () => number): Promise<ClientPlay> {
  const tools = new ToolClient(client);
  const verdicts: StepVerdict[] = [];
  let answer: string | undefined;
  const stuck = (why: string): ClientPlay => ({ verdicts, calls: tools.calls, confirmations: confirmations(), stuck: why, ...(answer === undefined ? {} : { answer }) });
  await tools.call('observe', {});
  for (const step of task.solution ?? []) {
    let offset = 0;
    let tries = 0;
    while (offset < step.actions.length) {
      const first = step.actions[offset]!;
      if (first.unit === 'finish') {
        answer = first.answer;
        offset += 1;
        continue;
      }
      if (first.unit === 'scroll' && first.until !== undefined && await tools.holds(`exists(${first.until})`)) {
        offset += 1;
        continue;
      }
      // The step's actions from here, up to one that ends what this screen can commit.
      const group: { action: SolutionAction; item: Item }[] = [];
      for (const action of step.actions.slice(offset)) {
        if (action.unit === 'finish') break;
        if (group.length > 0 && action.unit === 'scroll' && action.until !== undefined && await tools.holds(`exists(${action.until})`)) break;
        const item = itemFor(action, tools);
        if (!item) break;
        group.push({ action, item });
        if (endsCommitment(action)) break;
      }
      let result: Record<string, unknown> = {};
      let size = group.length;
      for (; size > 0; size--) {
        const rest = step.actions.slice(offset + size);
        const last = rest.length === 0 || rest[0]?.unit === 'finish';
        result = await tools.call('act', { commitment: group.slice(0, size).map((entry) => entry.item), ...(last && step.expect !== undefined ? { expect: step.expect } : {}), intent: step.intent });
        // A later target not on this screen yet: commit what the screen shows.
        if (!(result['verdict'] === 'refused' && result['refusal'] === 'unknown-target' && /^commitment\[(\d+)\]/.exec(String(result['reason']))?.[1] !== '0')) break;
      }
      if (size === 0 || result['verdict'] === 'refused') {
        // Nothing of the step's next action is on the screen: a step whose effect already shows is done.
        if (offset === 0 && step.expect !== undefined && await tools.holds(step.expect)) break;
        return stuck(`step "${step.intent}": ${String(result['reason'] ?? 'nothing to act on')}`);
      }
      const units = (result['units'] as { unit: string }[]).map((unit) => unit.unit);
      verdicts.push({ units, verdict: String(result['verdict']) });
      // Inconclusive: the loop asks its verifier (the oracle's: the reference step's expectation decides, else pass); the client checks the same.
      const settled = result['verdict'] === 'inconclusive' && (step.expect === undefined || await tools.holds(step.expect));
      if (result['verdict'] === 'pass' || settled) {
        offset += units.length;
        tries = 0;
      } else if (++tries >= maxTries) {
        return stuck(`step "${step.intent}" failed ${tries} times: ${String(result['reason'])}`);
      }
    }
  }
  return { verdicts, calls: tools.calls, confirmations: confirmations(), ...(answer === undefined ? {} : { answer }) };
}

/**
 * The loop's verdict of every executed commitment in a run's trace: per step, the units
 * of its admitted commitment and the last `verify-end` (the intent's verdict by the
 * contracts and the expectation, before a verifier model judged an inconclusive one: an
 * MCP client is its own verifier).
 */
export function loopVerdicts(traceDir: string): StepVerdict[] {
  const steps = new Map<number, { units?: string[]; verdict?: string }>();
  for (const event of readTrace(traceDir).events) {
    if (event.step === null) continue;
    const entry = steps.get(event.step) ?? {};
    if (event.type === 'commitment-end' && event.admissible) entry.units = event.units.map((item) => String((item as { unit?: unknown }).unit));
    // The contract's verdict: an intent the LLM verifier judged was inconclusive by the contracts (the verifier is asked only then).
    if (event.type === 'verify-end') entry.verdict = event.by === 'llm-verifier' ? 'inconclusive' : event.outcome;
    steps.set(event.step, entry);
  }
  return [...steps.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, entry]) => (entry.units && entry.verdict ? [{ units: entry.units, verdict: entry.verdict }] : []));
}

/** One task played by the loop (oracle policy) and by the scripted MCP client on the same simulator seed. */
export interface TaskPlay {
  readonly task: string;
  readonly success: boolean;
  readonly reason: string;
  readonly client: ClientPlay;
  readonly loop: StepVerdict[];
  /** Acts whose verdict equals the loop's for the same step (units and verdict), and how many were compared. */
  readonly equal: number;
  readonly compared: number;
  readonly mismatches: string[];
}

/** Compares the client's verdicts with the loop's, step by step (units and verdict). */
export function compareVerdicts(client: readonly StepVerdict[], loop: readonly StepVerdict[]): { equal: number; compared: number; mismatches: string[] } {
  const mismatches: string[] = [];
  let equal = 0;
  const compared = Math.max(client.length, loop.length);
  for (let index = 0; index < compared; index++) {
    const mine = client[index];
    const theirs = loop[index];
    if (mine && theirs && mine.verdict === theirs.verdict && mine.units.join(',') === theirs.units.join(',')) equal += 1;
    else mismatches.push(`step ${index + 1}: mcp ${mine ? `${mine.verdict} [${mine.units.join(',')}]` : '(none)'} vs loop ${theirs ? `${theirs.verdict} [${theirs.units.join(',')}]` : '(none)'}`);
  }
  return { equal, compared, mismatches };
}

const repoRoot = path.resolve(import.meta.dirname, '..');

function simDevice(task: Task, faults: string | undefined): SimDevice {
  const profile = loadDeviceProfile('sim', { cwd: repoRoot });
  if (profile.kind !== 'sim') throw new Error('devices/sim.yaml is not a sim profile');
  const simulator = simulatorForTask(task, { ...(faults === undefined ? {} : { faults: faults as 'standard' }), profile: profile.sim });
  return new SimDevice(simulator, { name: profile.name, ...(profile.settle === undefined ? {} : { settle: profile.settle }) });
}

/**
 * Plays `task` twice on fresh simulators of the same seed: the loop with the oracle policy
 * (runTask, as the bench runs it), then the scripted client through an in-process
 * `senseact mcp` server (the SDK's in-memory transport; elicitation accepted), judged by
 * the task's own success check on the simulator's state.
 */
export async function playTask(task: Task, options: { readonly faults?: string; readonly root?: string } = {}): Promise<TaskPlay> {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), 'senseact-mcp-play-'));
  try {
    const loopDevice = simDevice(task, options.faults);
    const loopRun = await runTask({ task, mode: 'senseact', policy: 'oracle', device: loopDevice, probe: loopDevice, traceRoot: root, suite: 'loop' });
    await loopDevice.close();
    const loop = loopVerdicts(path.resolve(root, loopRun.traceDir));

    const device = simDevice(task, options.faults);
    const session = new McpDeviceSession({ device, allow: task.allowedPackages, traceRoot: path.join(root, 'mcp') });
    const server = createSenseActMcpServer({ session, traceRoot: path.join(root, 'mcp'), run: { env: {}, cwd: root, allowIrreversible: false } });
    const client = new Client({ name: 'reference-client', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let confirmations = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      confirmations += 1;
      return { action: 'accept', content: { confirm: true } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    const played = await playReference(client, task, () => confirmations);
    await client.close();
    await session.close();
    const observation = await device.observe();
    const finalTree = parseHierarchy(observation.xml, { packageName: observation.packageName, activity: observation.activity, sourceName: 'final' });
    const verdict = await evaluateSuccess(task, { finalTree, appState: await device.appState(), ...(played.answer === undefined ? {} : { answer: played.answer }) });
    await device.close();
    const comparison = compareVerdicts(played.verdicts, loop);
    return { task: task.id, success: verdict.success && played.stuck === undefined, reason: played.stuck ?? verdict.reason, client: played, loop, ...comparison };
  } finally {
    if (options.root === undefined) rmSync(root, { recursive: true, force: true });
  }
}
