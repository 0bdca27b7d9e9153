import { describe, expect, it } from 'vitest';
import { extractJson, extractJsonCandidates } from '../../../src/model/extract-json.js';

describe('extractJson', () => {
  it.each([
    ['plain object', '{"a": 1}', { a: 1 }],
    ['surrounding whitespace', '  \n{"a": [1, 2]}\n', { a: [1, 2] }],
    ['json fence', 'Here you go:\n```json\n{"intent": "open"}\n```\nDone.', { intent: 'open' }],
    ['bare fence', '```\n{"x": true}\n```', { x: true }],
    ['last valid fence wins', '```json\n{"x": 1}\n```\nWait, corrected:\n```json\n{"x": 2}\n```', { x: 2 }],
    ['prose around an object', 'I think {"answer": "yes, {really}"} is right', { answer: 'yes, {really}' }],
    ['escaped quotes in strings', 'x {"a": "he said \\"}\\""} y', { a: 'he said "}"' }],
    ['top-level array', 'list: [1, 2, 3]', [1, 2, 3]],
    ['broken fence then valid object', '```json\n{oops}\n```\n{"ok": 1}', { ok: 1 }],
    ['think block with a draft object', '<think>maybe {"intent": "draft"}? no.</think>\n{"intent": "final"}', { intent: 'final' }],
    ['only a closing think tag', 'so the answer is {"x": 0}</think>{"x": 1}', { x: 1 }],
    ['trailing commas', '{"units": ["n1", "n2",], "intent": "go",}', { units: ['n1', 'n2'], intent: 'go' }],
    ['comments', '{\n  // the toggle\n  "unit": "n1", /* checked */ "url": "http://x//y"\n}', { unit: 'n1', url: 'http://x//y' }],
    ['commas inside strings are kept', '{"text": "a,}", "b": [1,],}', { text: 'a,}', b: [1] }],
  ])('%s', (_name, text, expected) => {
    const result = extractJson(text);
    expect(result).toEqual({ success: true, value: expected });
  });

  it.each([
    ['empty', '   ', /empty/],
    ['no json at all', 'I cannot help with that.', /No parsable JSON/],
    ['unbalanced object', '{"a": 1', /No parsable JSON/],
    ['thinking cut off', '<think>I should first {consider', /only a <think> block/],
  ])('fails on %s with a message', (_name, text, message) => {
    const result = extractJson(text);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(message);
  });

  it('lists candidates most likely first, without the insides of parsed spans', () => {
    expect(extractJsonCandidates('For example {"a": {"b": 1}} but really {"c": 2}')).toEqual([{ a: { b: 1 } }, { c: 2 }]);
    expect(extractJsonCandidates('```json\n{"first": 1}\n```\n```json\n{"second": 2}\n```')[0]).toEqual({ second: 2 });
    expect(extractJsonCandidates('nothing here')).toEqual([]);
    expect(extractJsonCandidates('[1] [2] [3]', 2)).toEqual([[1], [2]]);
  });
});
