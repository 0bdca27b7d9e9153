import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitResultSchema, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { IrreversibleAction } from '../agent/loop/irreversible-action.js';
import type { Skill } from '../skills/skill-schema.js';
import type { ConfirmActions, McpDeviceSession, ScreenData } from './mcp-device-session.js';
import { renderActText, renderCheckText, renderObserveText } from './render-tool-text.js';
import { actInputShape, actOutputShape, checkInputShape, checkOutputShape, observeInputShape, observeOutputShape, runInputShape, runOutputShape, screenshotOutputShape, skillsInputShape, skillsOutputShape } from './mcp-tool-schemas.js';
import { registerRunResources } from './run-resources.js';
import { runInstruction, type RunToolOptions } from './run-instruction.js';
import { skillsTool } from './skills-tool.js';

/** What `createSenseActMcpServer` serves. */
export interface SenseActMcpServerOptions {
  readonly session: McpDeviceSession;
  /** The runs folder the resources read (`senseact://runs/...`) and `run` writes to. */
  readonly traceRoot: string;
  /** Skills the `skills` tool lists, matches and runs (`--skills <dir>`); none when absent. */
  readonly skills?: readonly Skill[];
  /** What `run` needs: the environment its models come from, and the irreversible rule. */
  readonly run: Omit<RunToolOptions, 'session' | 'traceRoot' | 'confirm'>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The server's version, as `senseact --version` prints it. */
export const mcpServerVersion = '0.1.0';

const instructions = 'SenseAct drives one Android device and verifies every action. Call observe for the reduced view (unit ids, types, labels, states), act with unit ids (or target queries) and an optional expectation: the verdict comes from the observed change. check evaluates a predicate on the current screen. screenshot only when the view is not enough.';

function structured<T extends object>(text: string, data: T, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data as Record<string, unknown>, ...(isError ? { isError: true } : {}) };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The `senseact mcp` server (docs/mcp.md): tools observe / act / check / screenshot / run /
 * skills over one device session, and the runs' traces as read-only resources. An action
 * that cannot be undone is confirmed through elicitation when the client supports it.
 */
export function createSenseActMcpServer(options: SenseActMcpServerOptions): McpServer {
  const server = new McpServer({ name: 'senseact', version: mcpServerVersion }, { instructions, capabilities: { logging: {} } });
  const { session } = options;
  const confirmFor = (): ConfirmActions => {
    const elicitation = server.server.getClientCapabilities()?.elicitation;
    if (elicitation === undefined) return undefined;
    return async (actions) => askPerson(server, actions, elicitation.form !== undefined);
  };

  server.registerTool('observe', {
    title: 'Observe the screen',
    description: 'The reduced view of the current screen: blocks with typed units `[id] type "label" state`, the foreground app, a screen id and the SCG edges. Lean by default; units as data, the XML or a screenshot only when asked.',
    inputSchema: observeInputShape,
    outputSchema: observeOutputShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (input): Promise<CallToolResult> => {
    const data: ScreenData = await session.observe({ ...(input.units ? { units: true } : {}), ...(input.xml ? { xml: true } : {}) });
    const result = structured(renderObserveText(data), data);
    if (input.screenshot) {
      const shot = await session.screenshot();
      data.screenshots = shot.screenshots;
      result.content.push({ type: 'image', data: Buffer.from(shot.png).toString('base64'), mimeType: 'image/png' });
    }
    return result;
  });

  server.registerTool('act', {
    title: 'Act and verify',
    description: 'Run one unit or a short commitment (tap, long-press, fill, toggle, select, scroll, back, home, launch) on the last observed screen, the loop\'s way: admissibility, execute, verify against the observed change. Returns the verdict (pass / fail / inconclusive, strong or weak evidence), the change in words and the new view; refused with the reason when it cannot run. Actions that cannot be undone (delete, pay, buy, send, uninstall, factory reset) are confirmed by a person first.',
    inputSchema: actInputShape,
    outputSchema: actOutputShape,
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  }, async (input): Promise<CallToolResult> => {
    const output = await session.act(input, confirmFor());
    return structured(renderActText(output), output, output.verdict === 'refused');
  });

  server.registerTool('check', {
    title: 'Check a predicate',
    description: 'Evaluate a predicate (docs/predicates.md) on the last observed screen: true / false / unknown, with the failing part.',
    inputSchema: checkInputShape,
    outputSchema: checkOutputShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (input): Promise<CallToolResult> => {
    try {
      const output = await session.check(input.predicate);
      return structured(renderCheckText(output), output);
    } catch (error) {
      return failure(`check: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  server.registerTool('screenshot', {
    title: 'Screenshot',
    description: 'A PNG of the screen now (counted: prefer observe).',
    outputSchema: screenshotOutputShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (): Promise<CallToolResult> => {
    const shot = await session.screenshot();
    const data = { width: shot.width, height: shot.height, bytes: shot.png.byteLength, screenshots: shot.screenshots };
    return { content: [{ type: 'image', data: Buffer.from(shot.png).toString('base64'), mimeType: 'image/png' }, { type: 'text', text: `screenshot ${data.width}x${data.height}, ${data.bytes} bytes (#${data.screenshots})` }], structuredContent: data };
  });

  server.registerTool('run', {
    title: 'Run an instruction',
    description: 'Carry out an instruction with the SenseAct loop (its own planner model) on this device, with budgets; progress per step. Needs a configured model (SENSEACT_BASE_URL, SENSEACT_API_KEY, SENSEACT_MODEL).',
    inputSchema: runInputShape,
    outputSchema: runOutputShape,
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  }, async (input, extra: Extra): Promise<CallToolResult> => {
    const ran = await runInstruction(input, { ...options.run, session, traceRoot: options.traceRoot, confirm: confirmFor() }, progressOf(extra));
    if ('refused' in ran) return failure(ran.refused);
    return structured(`${ran.outcome}: ${ran.reason}\nsteps ${ran.steps}, verdicts pass ${ran.verdicts.pass} / fail ${ran.verdicts.fail} / inconclusive ${ran.verdicts.inconclusive}, model calls ${ran.modelCalls}\ntrace: ${ran.traceDir}`, ran);
  });

  server.registerTool('skills', {
    title: 'Verified skills',
    description: 'List the skills, match an instruction to one (no model), or run the matched skill: each step replayed and verified.',
    inputSchema: skillsInputShape,
    outputSchema: skillsOutputShape,
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  }, async (input): Promise<CallToolResult> => {
    const answer = await skillsTool(input, session, options.skills ?? []);
    if ('problem' in answer) return failure(answer.problem);
    return structured(answer.text, answer.data);
  });

  registerRunResources(server, options.traceRoot);
  return server;
}

/** Sends `notifications/progress` for the request when the client asked for progress (a progress token). */
function progressOf(extra: Extra): (progress: number, total: number, message: string) => void {
  const token = extra._meta?.progressToken;
  return (progress, total, message) => {
    if (token === undefined) return;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
  };
}

/** Asks the client's person whether to run actions that cannot be undone (form elicitation): true only for an explicit yes. */
async function askPerson(server: McpServer, actions: readonly IrreversibleAction[], form: boolean): Promise<boolean> {
  const message = `SenseAct is about to run an action that cannot be undone: ${actions.map((action) => `${action.type} "${action.label}" (${action.reason})`).join('; ')}. Run it?`;
  const requestedSchema = { type: 'object' as const, properties: { confirm: { type: 'boolean' as const, title: 'Run it', description: 'Yes runs the action; no leaves the device as it is.' } }, required: ['confirm'] };
  const result = form
    ? await server.server.elicitInput({ mode: 'form', message, requestedSchema })
    : await server.server.request({ method: 'elicitation/create', params: { message, requestedSchema } }, ElicitResultSchema);
  return result.action === 'accept' && result.content?.['confirm'] === true;
}
