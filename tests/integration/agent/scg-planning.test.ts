// The SCG in planning, through the whole loop on the simulator with scripted planners:
// typed preconditions refuse a disabled unit with a reason the next prompt shows, while
// the same unit later in a commitment (after what enables it) runs.
import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/agent/run-task.js';
import { simulatorForTask } from '../../../src/bench/simulator-for-task.js';
import { SimDevice } from '../../../src/device/sim-device.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel } from '../../../src/model/scripted-language-model.js';
import type { Task } from '../../../src/tasks/task-schema.js';
import { readTrace } from '../../../src/trace/read-trace.js';
import { simSuiteTask, temporaryRunRoot } from '../../helpers/sim-suite.js';

const runRoot = temporaryRunRoot('senseact-scg-');

function promptOf(request: LanguageModelRequest): string {
  return request.messages.map((message) => message.content).join('\n');
}

/** The id of the unit line whose label matches `label` (a regex source), e.g. `[n3a5d] click "Display"`. */
function unitId(request: LanguageModelRequest, label: string): string {
  const match = new RegExp(`\\[(n[0-9a-f]+)\\] [a-z-]+ "${label}"`).exec(promptOf(request));
  if (!match?.[1]) throw new Error(`no unit labelled /${label}/ in:\n${promptOf(request)}`);
  return match[1];
}

async function run(task: Task, planner: ScriptedLanguageModel) {
  const simulator = simulatorForTask(task, { seed: 7 });
  const device = new SimDevice(simulator);
  const result = await runTask({ task, mode: 'senseact', policy: 'llm', device, models: { planner }, traceRoot: runRoot.dir(), suite: 'scg-tests', probe: device });
  return { result, events: (await readTrace(result.traceDir)).events };
}

/** Walks Settings to the Private DNS dialog, then hands the dialog to `onDialog`. */
function privateDnsPlanner(onDialog: (request: LanguageModelRequest, prompt: string) => string): ScriptedLanguageModel {
  return new ScriptedLanguageModel({
    replies: (request) => {
      const prompt = promptOf(request);
      const screen = prompt.slice(prompt.lastIndexOf('<screen>\n'));
      if (screen.includes('dns.google') && !screen.includes('Select Private DNS mode')) return JSON.stringify({ intent: 'Done', finish: true });
      if (screen.includes('Select Private DNS mode')) return onDialog(request, prompt);
      if (screen.includes('"Private DNS"')) return JSON.stringify({ intent: 'Open Private DNS', expectation: 'newSurface', commitment: [{ unit: unitId(request, 'Private DNS') }] });
      if (screen.includes('"Network & internet"')) return JSON.stringify({ intent: 'Open Network & internet', expectation: 'exists(text="Airplane mode")', commitment: [{ unit: unitId(request, 'Network & internet') }] });
      return JSON.stringify({ intent: 'Scroll down', expectation: 'screenChanged', commitment: [{ unit: unitId(request, '[^"]*'), direction: 'down' }] });
    },
  });
}

describe('typed preconditions in the loop', () => {
  const task = simSuiteTask('settings-private-dns-google');

  it('refuses a disabled field as the first unit, says why in the next prompt, and runs it after the option that enables it', async () => {
    let refused = false;
    const planner = privateDnsPlanner((request, prompt) => {
      const field = unitId(request, 'Enter hostname of DNS provider|private_dns_mode_provider_hostname[^"]*');
      if (!prompt.includes('was rejected')) return JSON.stringify({ intent: 'Type the hostname', expectation: 'text(id~"private_dns_mode_provider_hostname")="dns.google"', commitment: [{ unit: field, value: 'dns.google' }] });
      refused = true;
      return JSON.stringify({
        intent: 'Use the provider hostname dns.google', expectation: 'exists(text="dns.google")',
        commitment: [{ unit: unitId(request, 'Private DNS provider hostname') }, { unit: field, value: 'dns.google' }, { unit: unitId(request, 'Save') }],
      });
    });
    const { result, events } = await run(task, planner);
    const rejected = events.filter((event) => event.type === 'commitment-end' && event.admissible === false);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toMatch(/is disabled and would ignore the action/);
    expect(refused).toBe(true);
    const retry = planner.calls.find((call) => promptOf(call.request).includes('was rejected'))!;
    expect(promptOf(retry.request)).toMatch(/Your previous commitment was rejected: n[0-9a-f]+ "[^"]*" is disabled/);
    expect(result.success, result.reason).toBe(true);
  });

  it('admits the enabled, visible option as the first unit (negative control): no rejection', async () => {
    const planner = privateDnsPlanner((request) => JSON.stringify({
      intent: 'Use the provider hostname dns.google', expectation: 'exists(text="dns.google")',
      commitment: [{ unit: unitId(request, 'Private DNS provider hostname') }, { unit: unitId(request, 'Enter hostname of DNS provider|private_dns_mode_provider_hostname[^"]*'), value: 'dns.google' }, { unit: unitId(request, 'Save') }],
    }));
    const { result, events } = await run(task, planner);
    expect(events.filter((event) => event.type === 'commitment-end' && event.admissible === false)).toEqual([]);
    expect(result.success, result.reason).toBe(true);
  });
});
