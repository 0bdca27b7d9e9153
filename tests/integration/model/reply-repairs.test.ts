// Reply repairs counted per role and kind: every model a run's session holds (planner,
// verifier, vision, certifier, judge) tells the ledger how each structured reply was read,
// and the trace gets a reply-repaired event for each repaired one; a reply written as
// asked counts as read, not repaired (the negative control in every role that has one).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentSession } from '../../../src/agent/agent-session.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import { generateStructured } from '../../../src/model/generate-structured.js';
import { InvalidModelReplyError } from '../../../src/model/invalid-model-reply-error.js';
import type { ModelRole } from '../../../src/model/model-role.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';
import { formatTraceHeader, formatTraceStep } from '../../../src/report/format-trace-step.js';
import { readRunArtifacts } from '../../../src/report/read-run-artifacts.js';
import { TraceWriter } from '../../../src/trace/trace-writer.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runs = temporaryRunRoot('senseact-reply-repairs-');
const verdictSchema = z.strictObject({ verdict: z.enum(['pass', 'fail']), reason: z.string() });
const verdict = { verdict: 'pass', reason: 'the switch shows on' };

function scripted(...texts: string[]): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ replies: texts.map((text) => ({ text })) });
}

describe('reply repairs per role', () => {
  it('counts each role\'s replies read, repaired by kind and invalid, and traces each repair in its step', async () => {
    const task = simSuiteTask('settings-dark-theme');
    const trace = new TraceWriter({ root: runs.dir(), suite: 'repairs', task: task.id, runId: 'roles' });
    const ledger = new UsageLedger();
    const session = new AgentSession(new SimDevice(simulatorForTask(task, { seed: 3 })), {
      planner: scripted(JSON.stringify(verdict), JSON.stringify(verdict)),
      verifier: scripted(`Here is my verdict:\n\`\`\`json\n${JSON.stringify(verdict)}\n\`\`\`\nThe switch moved.`),
      vision: new ScriptedVisionModel({ replies: [{ text: `<think>Looking at the screen.</think>${JSON.stringify(verdict)}` }] }),
      certifier: scripted(`\`\`\`json\n${JSON.stringify(verdict)}\n\`\`\``),
      judge: scripted('{"verdict": "pass"', `{'Verdict': 'pass', 'reason': 'same fact',}`),
    }, ledger, trace);
    const ask = (role: ModelRole) => {
      const model = role === 'vision' ? session.vision : role === 'planner' ? session.planner : role === 'verifier' ? session.verifier : role === 'certifier' ? session.certifier : session.judge;
      if (model === undefined) throw new Error(`no ${role} model`);
      return generateStructured(model as Parameters<typeof generateStructured>[0], { role, schema: verdictSchema, schemaName: 'Verdict', messages: [{ role: 'user', content: 'Verdict?' }], structured: false });
    };
    session.step = 1;
    for (const role of ['planner', 'planner', 'verifier', 'vision', 'certifier'] as const) await ask(role);
    session.step = 2;
    await ask('judge');

    expect(ledger.replyRepairs()).toEqual({
      planner: { replies: 2, repaired: 0, invalid: 0, kinds: {} },
      verifier: { replies: 1, repaired: 1, invalid: 0, kinds: { fence: 1, 'surrounding-text': 1 } },
      vision: { replies: 1, repaired: 1, invalid: 0, kinds: { 'think-block': 1 } },
      certifier: { replies: 1, repaired: 1, invalid: 0, kinds: { fence: 1 } },
      judge: { replies: 1, repaired: 1, invalid: 1, kinds: { 'single-quotes': 1, 'trailing-comma': 1, 'key-case': 1 } },
    });
    trace.emit({ type: 'run-end', step: null, status: 'completed', durationMs: 1, usage: { ...ledger.totals(), replyRepairs: ledger.replyRepairs() } });
    await trace.close();
    const events = readFileSync(path.join(trace.dir, 'trace.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; role?: string; step: number | null; repairs?: string[] });
    const repaired = events.filter((event) => event.type === 'reply-repaired');
    expect(repaired.map((event) => [event.step, event.role, event.repairs])).toEqual([
      [1, 'verifier', ['fence', 'surrounding-text']],
      [1, 'vision', ['think-block']],
      [1, 'certifier', ['fence']],
      [2, 'judge', ['single-quotes', 'trailing-comma', 'key-case (Verdict → verdict)']],
    ]);

    // debug: the header counts them per role, the step shows each repaired reply after its call.
    const artifacts = await readRunArtifacts(trace.dir);
    expect(formatTraceHeader(artifacts)).toContain('model replies read after a repair (repaired/read): planner 0/2, verifier 1/1 (fence 1, surrounding-text 1), vision 1/1 (think-block 1), certifier 1/1 (fence 1), judge 1/1 (key-case 1, single-quotes 1, trailing-comma 1, 1 invalid)');
    const step = artifacts.steps.find((candidate) => candidate.step === 1);
    expect(step).toBeDefined();
    const text = formatTraceStep(artifacts, step!);
    expect(text).toContain("REPAIRED the verifier's reply, read after: fence, surrounding-text");
    expect(text).not.toContain("the planner's reply, read after");
  });

  it('a reply that never validates counts as invalid only, and the call fails as before', async () => {
    const ledger = new UsageLedger();
    const task = simSuiteTask('settings-dark-theme');
    const trace = new TraceWriter({ root: runs.dir(), suite: 'repairs', task: task.id, runId: 'invalid' });
    const session = new AgentSession(new SimDevice(simulatorForTask(task, { seed: 3 })), { planner: scripted('no', 'still no', 'never') }, ledger, trace);
    await expect(generateStructured(session.planner, { role: 'planner', schema: verdictSchema, messages: [{ role: 'user', content: 'Verdict?' }], structured: false })).rejects.toSatisfy((error) => InvalidModelReplyError.isInstance(error));
    expect(ledger.replyRepairs()).toEqual({ planner: { replies: 0, repaired: 0, invalid: 3, kinds: {} } });
    await trace.close();
  });
});
