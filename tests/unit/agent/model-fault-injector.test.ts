// Model errors are injected into replies only, seeded and logged; the kinds that do not
// apply to a reply leave it alone, and a rate of 0 changes nothing.
import { describe, expect, it } from 'vitest';
import { gateMessages, plannerMessages, reactMessages } from '../../../src/agent/prompts/agent-prompts.js';
import { ModelFaultInjector } from '../../../src/agent/model-faults/model-fault-injector.js';
import { modelFaultProfile, modelFaultProfiles, type ModelFaultConfig } from '../../../src/agent/model-faults/model-fault-profile.js';
import { planReplySchema, reactReplySchema, visionReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { validateReply } from '../../../src/model/generate-structured.js';
import type { LanguageModelRequest } from '../../../src/model/language-model.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import type { VisionModelRequest } from '../../../src/model/vision-model.js';

const view = [
  'app com.android.settings activity .Settings screen 1080x2400',
  'block b1 "Settings"',
  '  [n1a2b] click "Display"',
  '  [n3c4d] click "Sound"',
  '  [n5e6f] toggle "Wi-Fi" checked',
].join('\n');

const planRequest: LanguageModelRequest = {
  role: 'planner',
  messages: plannerMessages({ instruction: 'Turn on dark theme', allowedPackages: ['com.android.settings'], view, history: [], certificates: [] }),
};
const plan = { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: 'n1a2b' }], finish: false };
const planText = JSON.stringify(plan);

function injector(config: ModelFaultConfig, seed = 1): ModelFaultInjector {
  return new ModelFaultInjector(config, seed);
}

describe('ModelFaultInjector', () => {
  it('changes nothing at rate 0 (every profile kind at 0)', () => {
    const faults = injector({ 'invalid-json': 0, 'wrong-unit': 0, 'hallucinated-unit': 0, 'stale-expectation': 0, 'missing-expectation': 0 });
    for (let call = 0; call < 20; call++) expect(faults.corrupt(planRequest, planText)).toBe(planText);
    expect(faults.log()).toEqual([]);
  });

  it('replaces a planned unit by another unit of the same screen (wrong-unit)', () => {
    const faults = injector({ 'wrong-unit': 1 });
    const reply = planReplySchema.parse(JSON.parse(faults.corrupt(planRequest, planText)));
    expect(reply.commitment[0]?.unit).not.toBe('n1a2b');
    expect(['n3c4d', 'n5e6f']).toContain(reply.commitment[0]?.unit);
    expect(reply.intent).toBe(plan.intent);
    expect(faults.log()).toMatchObject([{ kind: 'wrong-unit', role: 'planner' }]);
  });

  it('invents a unit id no unit of the screen has (hallucinated-unit)', () => {
    const faults = injector({ 'hallucinated-unit': 1 });
    const reply = planReplySchema.parse(JSON.parse(faults.corrupt(planRequest, planText)));
    expect(reply.commitment[0]?.unit).toMatch(/^n[0-9a-f]{4}$/);
    expect(view).not.toContain(`[${reply.commitment[0]?.unit}]`);
  });

  it('leaves pseudo units, look-for placeholders and finish replies alone (the unit kinds do not apply)', () => {
    const faults = injector({ 'wrong-unit': 1, 'hallucinated-unit': 1 });
    const back = JSON.stringify({ ...plan, commitment: [{ unit: 'nav-back' }] });
    const finish = JSON.stringify({ intent: 'done', expectation: '', commitment: [], finish: true });
    expect(faults.corrupt(planRequest, back)).toBe(back);
    expect(faults.corrupt(planRequest, finish)).toBe(finish);
    expect(faults.log()).toEqual([]);
  });

  it('answers in prose or cut-off JSON that no reader accepts (invalid-json)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const text = injector({ 'invalid-json': 1 }, seed).corrupt(planRequest, planText);
      expect(validateReply(text, planReplySchema).success, text).toBe(false);
    }
    // Negative control: the untouched reply validates.
    expect(validateReply(planText, planReplySchema).success).toBe(true);
  });

  it('drops the expectation, or repeats the previous plan\'s (missing / stale expectation)', () => {
    const missing = injector({ 'missing-expectation': 1 });
    expect(planReplySchema.parse(JSON.parse(missing.corrupt(planRequest, planText))).expectation).toBe('');
    const stale = injector({ 'stale-expectation': 1 });
    // The first plan has no previous expectation: nothing to repeat.
    expect(stale.corrupt(planRequest, planText)).toBe(planText);
    const second = JSON.stringify({ ...plan, intent: 'Switch dark theme on', expectation: 'checked(text="Dark theme")', commitment: [{ unit: 'n5e6f', checked: true }] });
    expect(planReplySchema.parse(JSON.parse(stale.corrupt(planRequest, second))).expectation).toBe(plan.expectation);
    expect(stale.log()).toMatchObject([{ kind: 'stale-expectation' }]);
  });

  it('reaches ReAct actions and gate answers too, from the ids their prompts show', () => {
    const reactRequest: VisionModelRequest = { role: 'planner', messages: reactMessages({ instruction: 'x', allowedPackages: [], view, previous: [] }) };
    const action = JSON.stringify({ thought: 'open display', action: { unit: 'n1a2b' }, finish: false });
    const reacted = reactReplySchema.parse(JSON.parse(injector({ 'wrong-unit': 1 }).corrupt(reactRequest, action)));
    expect(['n3c4d', 'n5e6f']).toContain(reacted.action?.unit);
    const candidates = ['[n7a7a] [0,0,10,10] click "A"', '[n8b8b] [0,20,10,30] click "B"'];
    const gateRequest: VisionModelRequest = { role: 'vision', messages: gateMessages({ intent: 'x', failure: 'y', candidates, png: new Uint8Array([1]) }) };
    const answer = JSON.stringify({ unit: 'n7a7a', reason: 'there', alreadyDone: false });
    expect(visionReplySchema.parse(JSON.parse(injector({ 'wrong-unit': 1 }).corrupt(gateRequest, answer))).unit).toBe('n8b8b');
  });

  it('draws the same faults for the same seed, and each kind from its own stream', () => {
    const config = { 'wrong-unit': 0.3, 'invalid-json': 0.2 };
    const kinds = (faults: ModelFaultInjector) => {
      for (let call = 0; call < 60; call++) faults.corrupt(planRequest, planText);
      return faults.log().map((fault) => fault.kind);
    };
    const first = kinds(injector(config, 7));
    expect(kinds(injector(config, 7))).toEqual(first);
    expect(kinds(injector(config, 8))).not.toEqual(first);
    expect(first.filter((kind) => kind === 'invalid-json').length).toBeGreaterThan(0);
    // Turning wrong-unit off leaves the invalid-json draws where they were (they come first in order).
    const alone = kinds(injector({ 'invalid-json': 0.2 }, 7));
    expect(alone.length).toBe(first.filter((kind) => kind === 'invalid-json').length);
  });

  it('wraps models so only the reply text changes, and one model in two roles stays one', async () => {
    const planner = new ScriptedLanguageModel({ replies: () => planText });
    const vision = new ScriptedVisionModel({ replies: () => JSON.stringify({ unit: null, reason: 'none', alreadyDone: false }) });
    const faults = injector({ 'missing-expectation': 1 });
    const models = faults.wrap({ planner, verifier: planner, vision });
    expect(models.verifier).toBe(models.planner);
    const reply = await models.planner.generate(planRequest);
    expect(JSON.parse(reply.text).expectation).toBe('');
    expect(planner.calls).toHaveLength(1);
    expect(models.planner.modelName('planner')).toBe(planner.modelName('planner'));
  });

  it('tells its listener of each fault as it fires, the same faults as its log, and nothing when none fires', () => {
    const heard: unknown[] = [];
    const faults = new ModelFaultInjector({ 'wrong-unit': 0.5, 'missing-expectation': 0.5 }, 3, (fault) => heard.push(fault));
    for (let call = 0; call < 12; call++) {
      const before = heard.length;
      const text = faults.corrupt(planRequest, planText);
      // Heard at once, for this reply: one fault exactly when the reply changed.
      expect(heard.length - before).toBe(text === planText ? 0 : 1);
    }
    expect(heard.length).toBeGreaterThan(0);
    expect(heard).toEqual(faults.log());
    const quiet: unknown[] = [];
    const off = new ModelFaultInjector({ 'wrong-unit': 0, 'missing-expectation': 0 }, 3, (fault) => quiet.push(fault));
    for (let call = 0; call < 12; call++) off.corrupt(planRequest, planText);
    expect(quiet).toEqual([]);
  });

  it('names its profiles, and no other', () => {
    expect(modelFaultProfile('standard')).toBe(modelFaultProfiles.standard);
    expect(modelFaultProfile('none')).toEqual({});
    expect(modelFaultProfile('toString')).toBeUndefined();
    expect(modelFaultProfile('heavy')).toBeUndefined();
  });
});
