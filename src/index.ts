/**
 * The public API of the `senseact` package (`import { ... } from 'senseact'`): what a user
 * needs to run the agent, drive a device, and use the stages alone. Each name is listed on
 * purpose; `tests/unit/repo/public-api.test.ts` snapshots the list, so a change to it is
 * deliberate. How the pieces fit: `docs/architecture.md`.
 *
 * - The agent: {@link SenseActAgent} runs an instruction of your own on a device;
 *   `runTask` runs one task of a suite, `runBenchmark` with `createBenchExecutor` a suite.
 * - The stages, usable alone: `parseHierarchy` (XML → UiTree), `perceive` (reduced view,
 *   control units, SCG), `computeDelta`, the predicate language (`parsePredicate`,
 *   `evaluatePredicate`), the verifiers (`verifyUnitStep`, `verifyIntent`), certificates and
 *   their memory, skills.
 * - Devices (`createDevice`, `loadDeviceProfile`, `SimDevice`, `AppiumDevice`) and models
 *   (`LanguageModel` / `VisionModel`, `OpenAiLanguageModel`, `createConfiguredModels`,
 *   cassettes).
 * - Errors: every error thrown on purpose is a `SenseActError` with a `code`; each kind has
 *   its class with a marker-based `isInstance`.
 *
 * Subpaths: `senseact/sim` is the simulator; `senseact/testing` holds scripted models and
 * fakes for tests; `senseact/bench` the benchmark's, report's and trace's building blocks
 * (results files, tables, metrics, HTML pages, trace events).
 */

// The agent.
export { SenseActAgent, type AgentDevice, type AgentOutcome, type AgentRunOptions, type AgentRunResult, type SenseActAgentOptions } from './agent/senseact-agent.js';
export { SenseActAgentError } from './agent/senseact-agent-error.js';
export { irreversibleAction, irreversibleWords, type IrreversibleAction } from './agent/loop/irreversible-action.js';
export { runTask, type RunTaskOptions } from './agent/run-task.js';
export type { AgentModels } from './agent/agent-session.js';
export type { PlanningOptions } from './agent/planning/planning-options.js';
export { ModelAnswerJudge } from './agent/model-answer-judge.js';
export { defaultGateThreshold, type GateReason } from './agent/loop/vlm-gate.js';
export { planReplySchema, type PlanReply, type CommitmentItem } from './agent/planning/plan-reply.js';
export { agentModeSchema, taskRunResultSchema, type AgentMode, type PolicyName, type TaskRunResult } from './agent/task-run-result.js';

// Devices.
export type { Device, Observation, Screenshot, ActResult, DeviceInfo, CallOptions } from './device/device.js';
export type { DeviceProbe } from './device/device-probe.js';
export { deviceActionSchema, type DeviceAction } from './device/device-action.js';
export { parseDeviceAction } from './device/parse-device-action.js';
export { createDevice, type CreateDeviceOptions } from './device/create-device.js';
export { loadDeviceProfile, parseDeviceProfile, deviceProfileSchema, type DeviceProfile, type SimDeviceProfile, type AppiumDeviceProfile } from './device/device-profile.js';
export { DeviceProfileError } from './device/device-profile-error.js';
export { AppiumDevice, type AppiumDeviceOptions } from './device/appium-device.js';
export { SimDevice, type SimDeviceOptions } from './device/sim-device.js';
export { startAppiumServer, type AppiumServerOptions, type AppiumServerHandle } from './device/appium-server.js';
export { DeviceError, type DeviceErrorReason } from './device/device-error.js';
// Both layers name their retry settings RetryPolicy; the device's keeps the plain name.
export { defaultRetryPolicy, type RetryPolicy } from './device/retry-policy.js';

// The UI tree.
export { parseHierarchy, safeParseHierarchy, type ParseHierarchyOptions } from './ui/parse-hierarchy.js';
export { HierarchyParseError } from './ui/hierarchy-parse-error.js';
export type { Bounds, NodeId, NodeIndex, HierarchyDialect, UiNode, UiTree } from './ui/ui-tree.js';

// Perception: reduction, control units, blocks, the SCG, the planner view.
export { perceive, type Perception } from './perception/perceive.js';
export type { PerceptionOptions } from './perception/perception-options.js';
export type { ControlUnit, UnitType, UnitId, Block, ScgEdge } from './perception/control-unit.js';
export type { Scg } from './perception/scg.js';
export { toPerceptionJson, type PerceptionJson } from './perception/perception-json.js';

// Verification: the predicate language, deltas, verdicts, surface decisions, certificates.
export { parsePredicate, safeParsePredicate, parseQuery } from './verify/parse-predicate.js';
export { printPredicate, printQuery } from './verify/print-predicate.js';
export { predicateSchema, querySchema, type Predicate, type Query } from './verify/predicate.js';
export { PredicateParseError } from './verify/predicate-parse-error.js';
export { evaluatePredicate, type EvaluationContext } from './verify/evaluate-predicate.js';
export { findNodes } from './verify/find-nodes.js';
export { computeDelta, type Delta, type DeltaLabel } from './verify/compute-delta.js';
export { evaluateExpectation, type ExpectationContext } from './verify/evaluate-expectation.js';
export { verifyUnitStep, type UnitStepInput, type UnitStepVerdict } from './verify/verify-unit-step.js';
export { verifyIntent, type IntentInput, type IntentVerdict } from './verify/verify-intent.js';
export type { Outcome, VerifyOutcome, EvidenceStrength } from './verify/verify-outcome.js';
export { tieMeanings, isTieKind, type TieKind } from './verify/tie-kinds.js';
export { decideSurface, type SurfaceDecision, type SurfaceInput } from './verify/decide-surface.js';
export { buildCertificate, renderCertificate, certificateSchema, type Certificate, type CertificateInput } from './verify/certificate.js';

// Memory.
export { CertificateMemory, type CertificateStore, type RetrievalQuery, type RetrievedCertificate } from './memory/certificate-memory.js';
export { CertificateMemoryError } from './memory/certificate-memory-error.js';
export { AppMemory } from './memory/app-memory.js';
export { AppMemoryError } from './memory/app-memory-error.js';

// Skills.
export { skillSchema, type Skill } from './skills/skill-schema.js';
export { loadSkills, saveSkill, readSkillFile } from './skills/skill-library.js';
export { readVerifiedRun, type VerifiedRun, type UnusableRun } from './skills/read-verified-run.js';
export { liftRun } from './skills/lift-run.js';
export { induceSkills, type InductionReport } from './skills/induce-skills.js';
export { matchSkill, type SkillMatchResult } from './skills/match-skill.js';
export { SkillError } from './skills/skill-error.js';

// Models.
export type { LanguageModel, LanguageModelRequest, ModelReply, ModelUsage, TextMessage } from './model/language-model.js';
export type { VisionModel, VisionModelRequest, VisionMessage, ImageDetail } from './model/vision-model.js';
export { modelRoles, type ModelRole } from './model/model-role.js';
export { OpenAiLanguageModel } from './model/openai-language-model.js';
export type { OpenAiModelOptions } from './model/openai-chat-client.js';
export { OpenAiVisionModel } from './model/openai-vision-model.js';
export { createConfiguredModels, type ConfiguredModels, type ConfiguredModelsOptions, type CassetteMode } from './model/create-configured-models.js';
export { modelConfigFromEnv, type ModelConfig } from './model/model-config-from-env.js';
export { generateStructured, type GenerateStructuredOptions, type GenerateStructuredResult } from './model/generate-structured.js';
export { RecordingLanguageModel, RecordingVisionModel } from './model/recording-language-model.js';
export { ReplayingLanguageModel, ReplayingVisionModel } from './model/replaying-language-model.js';
export { UsageLedger, type UsageTotals } from './model/usage-ledger.js';
export { ModelCallError } from './model/model-call-error.js';
export { ModelReplyShapeError } from './model/model-reply-shape-error.js';
export { ModelConfigError } from './model/model-config-error.js';
export { InvalidModelReplyError } from './model/invalid-model-reply-error.js';
export { CassetteMissError } from './model/cassette-miss-error.js';
export { CassetteReadError } from './model/cassette-read-error.js';
export { isModelInfrastructureError } from './model/is-model-infrastructure-error.js';
export { isModelReplyFailure } from './model/is-model-reply-failure.js';
export { defaultRetryPolicy as defaultModelRetryPolicy, type RetryPolicy as ModelRetryPolicy } from './model/retry-policy.js';

// Tasks and success.
export { loadSuite, loadTaskFile, loadTask, parseTaskFile, type LoadSuiteOptions, type LoadTaskOptions } from './tasks/load-task-file.js';
export { taskSchema, suiteSchema, type Task, type TaskInput, type Suite } from './tasks/task-schema.js';
export { TaskLoadError } from './tasks/task-load-error.js';
export { evaluateSuccess, type SuccessEvidence, type SuccessResult } from './tasks/evaluate-success.js';
export type { AnswerJudge, AnswerJudgeRequest, AnswerJudgement } from './tasks/answer-judge.js';
export { ExactMatchAnswerJudge } from './tasks/exact-match-answer-judge.js';

// Traces and the report.
export { readTrace, type TraceReadResult } from './trace/read-trace.js';
export { traceEventSchema, traceVersion, type TraceEvent, type TraceEventType } from './trace/trace-event.js';
export { InvalidTraceEventError } from './trace/invalid-trace-event-error.js';
export { writeReport, type WriteReportOptions, type WrittenReport } from './report/write-report.js';

// The benchmark (its building blocks: `senseact/bench`).
export { runBenchmark, type RunBenchmarkOptions } from './bench/run-benchmark.js';
export { createBenchExecutor, type BenchComposition } from './bench/compose.js';
export type { TaskExecutor } from './bench/task-executor.js';
export { benchResultsSchema, type BenchResults } from './bench/bench-results.js';
export { readBenchResults } from './bench/write-bench-report.js';
export { BenchError } from './bench/bench-error.js';

// Errors common to every layer.
export { SenseActError } from './util/senseact-error.js';
export type { Result } from './util/result.js';
