import { SenseActAgent } from '../agent/senseact-agent.js';
import { modelConfigFromEnv } from '../model/model-config-from-env.js';
import type { ConfirmActions, McpDeviceSession } from './mcp-device-session.js';

/** What the `run` tool works with. */
export interface RunToolOptions {
  readonly session: McpDeviceSession;
  readonly traceRoot: string;
  /** Where the models come from (`SENSEACT_*`, `OPENAI_*`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly allowIrreversible: boolean;
  readonly irreversibleWords?: readonly string[];
  readonly confirm: ConfirmActions;
}

/** The `run` tool's input (`runInputShape`). */
export interface RunToolInput {
  readonly instruction: string;
  readonly allow?: readonly string[] | undefined;
  readonly stepBudget?: number | undefined;
  readonly maxModelCalls?: number | undefined;
  readonly maxTokens?: number | undefined;
  readonly maxCostUsd?: number | undefined;
  readonly pricePromptPerMillionUsd?: number | undefined;
  readonly priceCompletionPerMillionUsd?: number | undefined;
  readonly check?: string | undefined;
}

/** The `run` tool's result (`runOutputShape`), or why it did not run. */
export type RunToolResult = {
  outcome: 'success' | 'failure' | 'finished' | 'stopped' | 'error';
  finished: boolean;
  answer?: string;
  steps: number;
  verdicts: { pass: number; fail: number; inconclusive: number };
  modelCalls: number;
  reason: string;
  traceDir: string;
} | { refused: string };

const defaultStepBudget = 20;

/**
 * Runs an instruction through `SenseActAgent` on the session's device (it stays open):
 * refused when no model is configured; the step budget bounds executed units, and past
 * `maxModelCalls` the run is stopped. `progress` is told after every step. The session
 * observes again afterwards, so the next act starts from the screen the run left.
 */
export async function runInstruction(input: RunToolInput, options: RunToolOptions, progress: (step: number, total: number, message: string) => void): Promise<RunToolResult> {
  const config = modelConfigFromEnv(options.env);
  if (!config.ready) {
    return { refused: `run needs a configured model and none is (${config.problems.join('; ')}). Set SENSEACT_BASE_URL, SENSEACT_API_KEY and SENSEACT_MODEL in the server's environment (docs/models-and-traces.md), or drive the device yourself with observe / act / check.` };
  }
  if (input.maxCostUsd !== undefined && (input.pricePromptPerMillionUsd === undefined || input.priceCompletionPerMillionUsd === undefined)) {
    return { refused: `maxCostUsd needs the model's prices to count it at: give pricePromptPerMillionUsd and priceCompletionPerMillionUsd, or set maxTokens or maxModelCalls instead.` };
  }
  const screen = await options.session.observe();
  const allowed = input.allow ?? (options.session.allow.length > 0 ? options.session.allow : [screen.app]);
  const stepBudget = input.stepBudget ?? defaultStepBudget;
  const stop = new AbortController();
  let modelCalls = 0;
  const confirm = options.confirm;
  const agent = await SenseActAgent.create({
    device: options.session.device,
    traceRoot: options.traceRoot,
    cwd: options.cwd,
    env: options.env,
    allowIrreversible: options.allowIrreversible,
    ...(confirm ? { confirm: (action) => confirm([action]) } : {}),
  });
  const result = await agent.run(input.instruction, {
    allowedPackages: allowed,
    stepBudget,
    ...(input.maxTokens === undefined && input.maxCostUsd === undefined ? {} : { budget: { maxTokens: input.maxTokens, maxCostUsd: input.maxCostUsd } }),
    ...(input.pricePromptPerMillionUsd === undefined || input.priceCompletionPerMillionUsd === undefined
      ? {}
      : { budgetPrices: { promptPerMillionUsd: input.pricePromptPerMillionUsd, completionPerMillionUsd: input.priceCompletionPerMillionUsd } }),
    ...(input.check === undefined ? {} : { check: input.check }),
    signal: stop.signal,
    onEvent: (event) => {
      if (event.type === 'model-call-end' || event.type === 'vlm-call-end') {
        modelCalls += 1;
        if (input.maxModelCalls !== undefined && modelCalls >= input.maxModelCalls) stop.abort(new Error(`the model-call budget of ${input.maxModelCalls} is used up`));
      }
      if (event.type === 'step-end' && event.step !== null) progress(event.step, stepBudget, `step ${event.step} done`);
    },
  });
  await agent.close();
  await options.session.observe();
  const overBudget = stop.signal.aborted;
  return {
    outcome: overBudget ? 'stopped' : result.outcome,
    finished: result.result.agentFinished === true,
    ...(result.answer === undefined ? {} : { answer: result.answer }),
    steps: result.steps,
    verdicts: { ...result.result.verification },
    modelCalls,
    reason: overBudget ? `the model-call budget of ${input.maxModelCalls ?? 0} is used up: ${result.reason}` : result.reason,
    traceDir: result.traceDir,
  };
}
