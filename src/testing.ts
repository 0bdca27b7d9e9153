/**
 * Test doubles for code built on SenseAct (`import { ... } from 'senseact/testing'`):
 * scripted language and vision models that reply per call or by a function of the
 * request and record every call, a local OpenAI-compatible mock server (so the real
 * client code runs), a fake bench executor, and the oracle models that play a task's
 * reference solution. They are named as what they are; none of them is a model.
 */
export { ScriptedLanguageModel, ScriptedVisionModel, type ScriptedReply, type ScriptedReplies, type ScriptedModelOptions, type ScriptedCall } from './model/scripted-language-model.js';
export { ScriptedModelExhaustedError } from './model/scripted-model-exhausted-error.js';
export { startMockOpenAiServer, type MockChatRequest, type MockReply, type MockOpenAiServerOptions, type MockOpenAiServer } from './model/mock-openai-server.js';
export { FakeTaskExecutor, fakeRunResult, type FakeBehaviour } from './bench/fake-task-executor.js';
export { createOraclePolicy, oracleModelName, type OraclePolicy, type OraclePolicyOptions } from './agent/policies/oracle/oracle-models.js';
export { OracleGuide } from './agent/policies/oracle/oracle-guide.js';
