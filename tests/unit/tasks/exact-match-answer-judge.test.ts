import { describe, expect, it } from 'vitest';
import { ExactMatchAnswerJudge, normalizeAnswer } from '../../../src/tasks/exact-match-answer-judge.js';

describe('normalizeAnswer', () => {
  it.each([
    ['  Hello,   World! ', ['hello', 'world']],
    ['3PM', ['15h00']],
    ['3:00 p.m.', ['15h00']],
    ['12 am', ['00h00']],
    ['7:05', ['07h05']],
    ['18,250 CNY', ['18250', 'cny']],
    ['3.50', ['3.5']],
    ['three alarms', ['3', 'alarms']],
    ['v1.2.', ['v1.2']],
  ])('%j → %j', (input, tokens) => {
    expect(normalizeAnswer(input)).toEqual(tokens);
  });
});

describe('ExactMatchAnswerJudge', () => {
  const judge = new ExactMatchAnswerJudge();
  it.each([
    ['4PM', ['16:00'], true],
    ['Yes, it is on.', ['yes'], true],
    ['There are three alarms', ['3'], true],
    ['512 CNY', ['512'], true],
    ['5120', ['512'], false],
    ['no', ['yes'], false],
    ['It is not open', ['open'], false],
    ['It is not open', ['not open'], true],
    ['No, it is not open', ['not open'], false],
    ["The alarm isn't on", ['on'], false],
    ['', ['yes'], false],
    ['Tokyo', ['GMT+09:00 Japan Standard Time', 'Tokyo'], true],
    ["ABC's number is 5550102000.", ['(555) 010-2000'], true],
    ['Call (555) 010-2000', ['5550102000'], true],
    ['555 010 2001', ['(555) 010-2000'], false],
    ['1:21:03', ['1 hour, 21 minutes and 3 seconds'], false],
  ])('%j against %j → %s', async (answer, expected, correct) => {
    const verdict = await judge.judge({ instruction: 'q', expected, answer });
    expect(verdict.correct).toBe(correct);
    expect(verdict.judge).toBe('exact');
    expect(verdict.reason.length).toBeGreaterThan(0);
  });
});
