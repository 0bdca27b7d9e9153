// Measures the model layer and the trace writer offline and prints the numbers:
//   npx tsx scripts/bench-model-trace.ts [--calls 300] [--events 5000] [--corpus <dir>]
// - round trip of OpenAiLanguageModel (the real `openai` client) against the local mock server;
// - generateStructured on top of it (JSON extraction + zod validation);
// - cassette recording overhead and replay throughput;
// - trace events per second (write-through, and with fsync), artifact writes, redaction speed
//   over real dumps (default tests/fixtures/dump-corpus).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { generateStructured } from '../src/model/generate-structured.js';
import { startMockOpenAiServer } from '../src/model/mock-openai-server.js';
import { modelConfigFromEnv } from '../src/model/model-config-from-env.js';
import { OpenAiLanguageModel } from '../src/model/openai-language-model.js';
import { RecordingLanguageModel } from '../src/model/recording-language-model.js';
import { ReplayingLanguageModel } from '../src/model/replaying-language-model.js';
import { readTrace } from '../src/trace/read-trace.js';
import { TraceWriter } from '../src/trace/trace-writer.js';
import { redactSecrets } from '../src/util/redact-secrets.js';
import { corpusFolder } from './corpus-option.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '300' }, events: { type: 'string', default: '5000' }, corpus: { type: 'string' } } });
const calls = Number(values.calls);
const eventCount = Number(values.events);
const scratch = mkdtempSync(join(tmpdir(), 'senseact-bench-model-'));

function report(name: string, count: number, milliseconds: number, unit = 'op'): void {
  console.log(`${name.padEnd(44)} ${count.toString().padStart(6)} ${unit}s  ${(milliseconds / count).toFixed(3).padStart(9)} ms/${unit}  ${((count * 1000) / milliseconds).toFixed(0).padStart(8)} ${unit}s/s`);
}

async function timed(work: () => Promise<void> | void): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const prompt = 'Screen: com.android.settings/.Settings\n' + Array.from({ length: 40 }, (_, index) => `[n${(index * 7919).toString(16).padStart(4, '0')}] toggle "Option ${index}" checked`).join('\n');
const server = await startMockOpenAiServer({ reply: (request) => `\`\`\`json\n{"intent": "tap option ${request.index % 40}", "units": ["n0001"]}\n\`\`\`` });
try {
  const model = new OpenAiLanguageModel({ config: modelConfigFromEnv({ SENSEACT_BASE_URL: server.url }) });
  const messages = [{ role: 'user' as const, content: prompt }];
  await model.generate({ role: 'planner', messages }); // warm-up
  report('adapter round trip (mock server)', calls, await timed(async () => {
    for (let index = 0; index < calls; index++) await model.generate({ role: 'planner', messages: [{ role: 'user', content: `${prompt}\n#${index}` }] });
  }), 'call');

  const schema = z.object({ intent: z.string(), units: z.array(z.string()) });
  report('generateStructured (mock server)', calls, await timed(async () => {
    for (let index = 0; index < calls; index++) await generateStructured(model, { role: 'planner', schema, messages: [{ role: 'user', content: `${prompt}\n#${index}` }] });
  }), 'call');

  const cassette = join(scratch, 'bench.jsonl');
  const recorder = new RecordingLanguageModel(model, { path: cassette });
  report('recording round trip (mock server)', calls, await timed(async () => {
    for (let index = 0; index < calls; index++) await recorder.generate({ role: 'planner', messages: [{ role: 'user', content: `${prompt}\n#${index}` }] });
  }), 'call');
  const replayer = new ReplayingLanguageModel({ path: cassette });
  report('cassette replay', calls, await timed(async () => {
    for (let index = 0; index < calls; index++) await replayer.generate({ role: 'planner', messages: [{ role: 'user', content: `${prompt}\n#${index}` }] });
  }), 'call');
} finally {
  await server.close();
}

const dumpsRoot = corpusFolder('tests/fixtures/dump-corpus');
const dumps: string[] = [];
for (const dialect of ['appium-uia2', 'uiautomator-dump']) {
  const folder = join(dumpsRoot, dialect);
  try {
    for (const name of readdirSync(folder)) if (name.endsWith('.xml')) dumps.push(readFileSync(join(folder, name), 'utf8'));
  } catch {
    console.log(`(no dumps at ${folder}; redaction is measured on what was found)`);
  }
}
const sample = dumps[0] ?? '<hierarchy/>';

for (const fsync of [false, true]) {
  const count = fsync ? Math.min(eventCount, 1000) : eventCount;
  const writer = new TraceWriter({ root: scratch, suite: 'bench', task: fsync ? 'fsync' : 'write', runId: 'r' });
  report(`trace emit (${fsync ? 'fsync each' : 'batched'})`, count, await timed(() => {
    for (let index = 0; index < count; index++) {
      writer.emit({ type: 'verify-end', step: index, outcome: 'pass', reason: 'toggle flipped', label: 'partial-change', by: 'contract' });
    }
  }), 'event');
  await writer.close();
  if (!fsync) report('readTrace (validate every event)', count, await timed(() => void readTrace(writer.dir)), 'event');
}

const artifacts = new TraceWriter({ root: scratch, suite: 'bench', task: 'artifacts', runId: 'r' });
const steps = 200;
report(`step artifact before.xml (${(sample.length / 1024).toFixed(0)} KiB, redacted)`, steps, await timed(() => {
  for (let step = 0; step < steps; step++) artifacts.writeStepArtifact(step, 'before.xml', sample);
}), 'write');
await artifacts.close();

const allDumps = dumps.join('\n');
const rounds = 20;
const redactMs = await timed(() => {
  for (let round = 0; round < rounds; round++) redactSecrets(allDumps, ['local-secret-value']);
});
console.log(`redactSecrets over ${dumps.length} real dumps: ${((allDumps.length * rounds) / 1024 / 1024 / (redactMs / 1000)).toFixed(1)} MiB/s (${(allDumps.length / 1024).toFixed(0)} KiB x ${rounds})`);
const changed = dumps.filter((dump) => redactSecrets(dump) !== dump).length;
console.log(`dumps altered by redaction (should be 0: UI text holds no keys): ${changed} of ${dumps.length}`);

rmSync(scratch, { recursive: true, force: true });
