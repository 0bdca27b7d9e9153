// Which model "personalities" the SenseAct loop copes with, through the real OpenAI client
// and the mock server: each personality answers the settings-dark-theme task correctly in
// its own style; the table says whether the run completed, what the tolerant reader
// repaired, and how a refusal reads.
//
//   npx tsx scripts/model-personalities.ts [--structured json_schema|json_object|none]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { runTask } from '../src/agent/run-task.js';
import { simulatorForTask } from '../src/bench/simulator-for-task.js';
import { SimDevice } from '../src/device/sim-device.js';
import { mockPersonalitySchema, personalityReply } from '../src/model/mock-model-personality.js';
import { startMockOpenAiServer, type MockChatRequest } from '../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../src/model/openai-language-model.js';
import { OpenAiVisionModel } from '../src/model/openai-vision-model.js';
import { loadSuite } from '../src/tasks/load-task-file.js';
import { readTrace } from '../src/trace/read-trace.js';

const { values } = parseArgs({ options: { structured: { type: 'string' } } });
const suite = await loadSuite('sim', { tasksRoot: path.resolve(import.meta.dirname, '..', 'tasks') });
const task = suite.tasks.find((candidate) => candidate.id === 'settings-dark-theme');
if (!task) throw new Error('tasks/sim has no settings-dark-theme task');
const root = await mkdtemp(path.join(tmpdir(), 'senseact-personalities-'));

/** A capable model's answer on this task, read from the last screen in the prompt. */
function answer(request: MockChatRequest): Record<string, unknown> {
  if (request.model === 'verifier-model') return { verdict: 'pass', reason: 'the switch shows on' };
  const screen = [...request.texts.join('\n').matchAll(/<screen>\n([\s\S]*?)\n<\/screen>/g)].at(-1)?.[1] ?? '';
  const toggle = /\[(n[0-9a-f]+)\] toggle "Dark theme" (checked|unchecked)/.exec(screen);
  if (toggle?.[2] === 'checked') return { intent: 'Dark theme is on: done', finish: true };
  if (toggle) return { intent: 'Switch dark theme on', expectation: 'checked(label~"Dark theme")', commitment: [{ unit: toggle[1], checked: true }] };
  const display = /\[(n[0-9a-f]+)\] click "Display"/.exec(screen);
  if (display) return { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: display[1] }] };
  return { intent: 'Go back', commitment: [{ unit: 'nav-back' }] };
}

console.log(`settings-dark-theme through the mock server, SENSEACT_STRUCTURED=${values.structured ?? '(default for 127.0.0.1: json_schema)'}`);
console.log('personality   outcome     calls  repairs / error');
for (const personality of mockPersonalitySchema.options) {
  const server = await startMockOpenAiServer({ reply: (request) => personalityReply(personality, answer(request), request) });
  try {
    const config = modelConfigFromEnv({
      SENSEACT_BASE_URL: server.url, SENSEACT_PLANNER_MODEL: 'planner-model', SENSEACT_VERIFIER_MODEL: 'verifier-model', SENSEACT_VISION_MODEL: 'vision-model',
      ...(values.structured === undefined ? {} : { SENSEACT_STRUCTURED: values.structured }),
    });
    const retry = { initialDelayMs: 1, maxDelayMs: 5, budgetMs: 10_000 };
    const language = new OpenAiLanguageModel({ config, retry });
    const device = new SimDevice(simulatorForTask(task, { seed: 3 }));
    const result = await runTask({
      task, mode: 'senseact', policy: 'llm', device, probe: device, traceRoot: root, suite: personality,
      models: { planner: language, verifier: language, vision: new OpenAiVisionModel({ config, retry }) },
    });
    const plans = (await readTrace(result.traceDir)).events.filter((event) => event.type === 'plan-end');
    const repairs = [...new Set(plans.flatMap((event) => (event['repairs'] as string[] | undefined) ?? []).map((line) => line.split(' (')[0]))];
    const outcome = result.error !== null ? 'infra error' : result.success ? 'success' : 'failed';
    const detail = result.error ?? (result.stopReason?.startsWith('model reply: ') === true ? result.stopReason : repairs.length > 0 ? repairs.join(', ') : '(none)');
    console.log(`${personality.padEnd(13)} ${outcome.padEnd(11)} ${String(server.requests.length).padStart(5)}  ${detail}`);
  } finally {
    await server.close();
  }
}
await rm(root, { recursive: true, force: true });
