import { describe, expect, it } from 'vitest';
import { formatPromptTokenBreakdown, pairedTokenRatio, promptTokenBreakdown } from '../../../src/bench/prompt-token-breakdown.js';
import { runResult } from './run-result-builder.js';

const runs = [
  runResult({ id: 'a', mode: 'senseact', llmCalls: 2, promptTokens: 1000, promptTokensBySection: { system: 600, view: 300, framing: 100 } }),
  runResult({ id: 'b', mode: 'senseact', llmCalls: 4, promptTokens: 3000, promptTokensBySection: { system: 1200, view: 900, certificates: 800, framing: 100 } }),
  runResult({ id: 'c', mode: 'senseact', promptTokens: 0, error: 'device lost' }),
  runResult({ id: 'a', mode: 'react-vlm', vlmCalls: 2, llmCalls: 0, imagesUploaded: 2, imageTokens: 850, promptTokens: 1850, promptTokensBySection: { system: 300, view: 700, images: 850 } }),
  runResult({ id: 'b', mode: 'react-vlm', vlmCalls: 1, llmCalls: 0, imagesUploaded: 1, imageTokens: 425, promptTokens: 1000, promptTokensBySection: { system: 150, view: 425, images: 425 } }),
];

describe('promptTokenBreakdown', () => {
  it('averages sections per task over clean runs and per call by role', () => {
    const calls = new Map([
      [runs[0]!, [{ role: 'planner', promptTokens: 500, sections: { system: 300, view: 200 } }, { role: 'planner', promptTokens: 500, sections: { system: 300, view: 100, mystery: 100 }, sharedPrefixTokens: 320 }]],
    ]);
    const [senseact, reactVlm] = promptTokenBreakdown(runs, ['senseact', 'react-vlm'], (run) => calls.get(run) ?? []);
    expect(senseact).toMatchObject({ tasks: 2, errors: 1, callsPerTask: 3, promptPerTask: 2000 });
    expect(senseact?.perTask).toEqual({ system: 900, view: 600, certificates: 400, framing: 100 });
    // The second call shared its first 320 tokens with the first: 160 per call on average.
    expect(senseact?.perCall['planner']).toEqual({ calls: 2, prompt: 500, sharedPrefix: 160, sections: { system: 300, view: 150, other: 50 } });
    // Phone-size screenshots: each image re-costed at 1445 tokens instead of what was sent.
    expect(reactVlm?.promptPerTask).toBe(1425);
    expect(reactVlm?.promptPerTaskAtPhoneSize).toBe((1850 - 850 + 2 * 1445 + 1000 - 425 + 1445) / 2);
  });

  it('pairs modes on the same tasks: median and aggregate ratio, and how often the mode is not dearer', () => {
    const ratio = pairedTokenRatio(runs, 'senseact', 'react-vlm');
    expect(ratio).toMatchObject({ pairedTasks: 2, tasksNotMoreExpensive: 1, phoneSize: false });
    expect(ratio?.medianRatio).toBeCloseTo((1000 / 1850 + 3000 / 1000) / 2, 10);
    expect(ratio?.aggregateRatio).toBeCloseTo(4000 / 2850, 10);
    expect(pairedTokenRatio(runs, 'senseact', 'react-text')).toBeUndefined();
    const text = formatPromptTokenBreakdown(promptTokenBreakdown(runs, ['senseact', 'react-vlm']), [ratio!]);
    expect(text).toMatch(/mode +success +calls +system +certificates +view +images +framing +prompt/);
    expect(text).toMatch(/senseact +2\/2 \(\+1 err\) +3\.0 +900 +400 +600 +- +100 +2000/);
    expect(text).toMatch(/senseact \/ react-vlm: median 1\.77, aggregate 1\.40, not more expensive on 1 of 2 tasks/);
  });
});
