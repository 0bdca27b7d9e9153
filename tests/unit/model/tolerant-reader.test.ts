// The tolerant reader: what it repairs (spelling that cannot change the meaning) and
// what it leaves to validation, on the agent's own reply schemas.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planReplySchema, visionReplySchema } from '../../../src/agent/planning/plan-reply.js';
import { validateReply } from '../../../src/model/generate-structured.js';
import type { ReplyRepair } from '../../../src/model/reply-repair.js';

const plan = { intent: 'Open Display', expectation: 'exists(text="Dark theme")', commitment: [{ unit: 'n3f2a' }] };
const parsedPlan = { ...plan, finish: false };

function kinds(repairs: readonly ReplyRepair[]): string[] {
  return repairs.map((repair) => repair.kind);
}

function read(text: string, schema: z.ZodType = planReplySchema) {
  const result = validateReply(text, schema);
  if (!result.success) throw new Error(`expected a valid reply, got ${JSON.stringify(result.issues)}`);
  return result;
}

function refuse(text: string, schema: z.ZodType = planReplySchema) {
  const result = validateReply(text, schema);
  if (result.success) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.issues;
}

describe('the tolerant reader repairs how a reply is written', () => {
  it('reads clean JSON with no repairs', () => {
    const result = read(JSON.stringify(plan));
    expect(result.value).toEqual(parsedPlan);
    expect(result.repairs).toEqual([]);
  });

  it('takes the JSON from a fence, from prose around it, or after a think block', () => {
    expect(kinds(read(`\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\``).repairs)).toEqual(['fence']);
    const chatty = read(`Sure! Here's what I'll do next:\n${JSON.stringify(plan)}\nLet me know if that's OK.`);
    expect(chatty.value).toEqual(parsedPlan);
    expect(kinds(chatty.repairs)).toEqual(['surrounding-text']);
    const thinking = read(`<think>The user wants dark theme. Maybe {"intent": "draft"}?</think>\n${JSON.stringify(plan)}`);
    expect(thinking.value).toEqual(parsedPlan);
    expect(kinds(thinking.repairs)).toEqual(['think-block']);
  });

  it('says when prose stood around the fence too (as Ollama-served models write), and not when the fence was all', () => {
    const fenced = `\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\``;
    const explained = read(`Here is the next step:\n${fenced}\nThis opens the Display page.`);
    expect(explained.value).toEqual(parsedPlan);
    expect(kinds(explained.repairs)).toEqual(['fence', 'surrounding-text']);
    expect(kinds(read(`  ${fenced}\n`).repairs)).toEqual(['fence']);
    expect(kinds(read(`\`\`\`json\n{"intent": "draft"\n\`\`\`\n${fenced}`).repairs)).toEqual(['fence']);
  });

  it("rewrites single quotes, Python literals, trailing commas and comments, and says so", () => {
    const text = `{'intent': 'Open Display', 'expectation': 'exists(text="Dark theme")', 'commitment': [{'unit': 'n3f2a',},], 'finish': False, // no answer\n}`;
    const result = read(text);
    expect(result.value).toEqual(parsedPlan);
    expect(kinds(result.repairs).sort()).toEqual(['comment', 'python-literals', 'single-quotes', 'trailing-comma']);
    expect(read(`{'intent': 'It\\'s on', 'finish': True}`).value).toMatchObject({ intent: "It's on", finish: true });
  });

  it('renames keys written in another case or separator style to the one key they can mean', () => {
    const result = read('{"Intent": "Find the star", "COMMITMENT": [], "look_for": "the unlabelled star icon", "Commitment_": 1}'.replace(', "Commitment_": 1', ''));
    expect(result.value).toMatchObject({ intent: 'Find the star', commitment: [], lookFor: 'the unlabelled star icon' });
    expect(result.repairs.filter((repair) => repair.kind === 'key-case').map((repair) => repair.detail)).toEqual(['Intent → intent', 'COMMITMENT → commitment', 'look_for → lookFor']);
    expect(read('{"intent": "Tap", "commitment": [{"Unit": "n1", "LongPress": true}]}').value).toMatchObject({ commitment: [{ unit: 'n1', longPress: true }] });
  });

  it('drops null for an optional key (what strict structured output sends), and keeps a meaningful null', () => {
    const result = read(JSON.stringify({ ...plan, finish: false, answer: null, lookFor: null }));
    expect(result.value).toEqual(parsedPlan);
    expect(result.repairs).toEqual([{ kind: 'null-optional', detail: 'answer' }, { kind: 'null-optional', detail: 'lookFor' }]);
    const vision = read('{"unit": null, "reason": "no candidate shows a star"}', visionReplySchema);
    expect(vision.value).toEqual({ unit: null, reason: 'no candidate shows a star', alreadyDone: false });
    expect(vision.repairs).toEqual([]);
  });

  it('leaves quotes, words and braces inside strings alone', () => {
    const result = read('{"intent": "Don\'t say True, None or {x}", "finish": true}');
    expect(result.value).toMatchObject({ intent: "Don't say True, None or {x}", finish: true });
    expect(result.repairs).toEqual([]);
  });
});

describe('the tolerant reader leaves meaning to validation', () => {
  it('does not drop an extra key', () => {
    expect(refuse(JSON.stringify({ ...plan, reason: 'because' }))[0]?.message).toMatch(/reason/);
  });

  it('does not rename a key whose target is already there, nor one that could mean two keys', () => {
    expect(refuse(JSON.stringify({ ...plan, Intent: 'Other' }))[0]?.message).toMatch(/Intent/);
    const twoWays = z.strictObject({ lookFor: z.string().optional(), look_for: z.string().optional(), x: z.number() });
    expect(refuse('{"LookFor": "a", "x": 1}', twoWays)[0]?.message).toMatch(/LookFor/);
  });

  it('does not coerce types: a string "true" stays a string and fails', () => {
    expect(refuse(JSON.stringify({ ...plan, finish: 'true' }))[0]?.path).toEqual(['finish']);
  });

  it('does not drop a null the schema requires to be something else', () => {
    expect(refuse('{"intent": null, "finish": true}')[0]?.path).toEqual(['intent']);
  });

  it("refuses the paper's two-field planner format with a message that says what is missing", () => {
    const issues = refuse('{"intent": "Turn on dark theme", "expectation": "checked(label~\\"Dark theme\\")"}');
    expect(issues[0]?.path).toEqual(['commitment']);
    expect(issues[0]?.message).toMatch(/two-field \{intent, expectation\} planner format.*"commitment"/);
  });

  it('says nothing was found in a truncated reply', () => {
    expect(refuse('{"intent": "Open Disp')[0]?.message).toMatch(/No parsable JSON/);
  });
});
