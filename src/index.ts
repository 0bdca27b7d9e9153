/**
 * The public API of the `senseact` package (`import { ... } from 'senseact'`).
 *
 * - High level: {@link SenseActAgent} runs an instruction of your own on a device;
 *   `runTask` runs one task file entry, `runBenchmark` with `createBenchExecutor` a suite.
 * - The stages, usable alone: `parseHierarchy` (XML → UiTree), `perceive` (reduced view,
 *   control units, SCG), `computeDelta`, the predicate language (`parsePredicate`,
 *   `evaluatePredicate`), certificates and their memory, devices (`createDevice`,
 *   `loadDeviceProfile`, `SimDevice`, `AppiumDevice`), models (`OpenAiLanguageModel`,
 *   `createConfiguredModels`, cassettes), tasks (`loadSuite`, `evaluateSuccess`), traces
 *   and the HTML report.
 * - Errors: every error thrown on purpose is a `SenseActError` with a `code`; each kind
 *   has its class with a marker-based `isInstance` (`DeviceError`, `HierarchyParseError`,
 *   `ModelCallError`, `BenchError`, ...).
 *
 * The simulator is `senseact/sim`; scripted models and fakes for tests are `senseact/testing`.
 */
export * from './util/index.js';
export * from './ui/index.js';
export * from './perception/index.js';
export * from './verify/index.js';
export * from './memory/index.js';
export * from './device/index.js';
export * from './model/index.js';
export * from './tasks/index.js';
export * from './trace/index.js';
export * from './report/index.js';
export * from './bench/index.js';
export * from './skills/index.js';
// Both layers name their retry settings RetryPolicy; the device's keeps the plain name.
export { defaultRetryPolicy, type RetryPolicy } from './device/retry-policy.js';
export { defaultRetryPolicy as defaultModelRetryPolicy, type RetryPolicy as ModelRetryPolicy } from './model/retry-policy.js';

export { SenseActAgent, type AgentDevice, type AgentOutcome, type AgentRunOptions, type AgentRunResult, type SenseActAgentOptions } from './agent/senseact-agent.js';
export { SenseActAgentError } from './agent/senseact-agent-error.js';
export { runTask, type RunTaskOptions } from './agent/run-task.js';
export { AgentSession, type AgentModels, type LatencyTotals, type Screen } from './agent/agent-session.js';
export { ModelAnswerJudge } from './agent/model-answer-judge.js';
export { defaultGateThreshold, type GateReason } from './agent/vlm-gate.js';
export * from './agent/plan-reply.js';
export * from './agent/task-run-result.js';
export { createBenchExecutor, type BenchComposition } from './bench/compose.js';
