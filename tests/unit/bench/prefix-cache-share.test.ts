import { describe, expect, it } from 'vitest';
import { formatPrefixCacheShares, prefixCacheShares, type BenchPromptCall } from '../../../src/bench/prefix-cache-share.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';

const system = `system\n${'Operate an Android app and reply with JSON. '.repeat(8)}\n`;
const call = (text: string, sharedInRun: number, mode: BenchPromptCall['mode'] = 'senseact'): BenchPromptCall => ({ mode, role: 'planner', promptTokens: estimateTokens(text), text, sharedInRun });

describe('prefixCacheShares', () => {
  it("counts, across the bench, the system text every run's first call shares with earlier runs; per run only later calls", () => {
    const runA1 = `${system}user\nTask: turn on Wi-Fi\n\n<screen>home</screen>\n`;
    const runA2 = `${system}user\nTask: turn on Wi-Fi\n\n1. Open Network → pass\n\n<screen>network</screen>\n`;
    const runB1 = `${system}user\nTask: open Display\n\n<screen>home</screen>\n`;
    const inRunA2 = estimateTokens(`${system}user\nTask: turn on Wi-Fi\n\n`);
    const [share] = prefixCacheShares([call(runA1, 0), call(runA2, inRunA2), call(runB1, 0)]);
    expect(share?.calls).toBe(3);
    expect(share?.sharedInRun).toBe(inRunA2);
    const benchB1 = estimateTokens(`${system}user\nTask: `);
    expect(share?.servedAcrossBench['exact']).toBe(inRunA2 + benchB1);
    expect(share?.servedAcrossBench['vllm']).toBe(Math.floor(inRunA2 / 16) * 16 + Math.floor(benchB1 / 16) * 16);
    expect(share?.servedAcrossBench['openai']).toBe(0);
  });

  it('serves nothing to a bench whose prompts share no start (negative control), and keeps modes apart', () => {
    // One endpoint for every mode: the second call shares the role line of the first, whichever mode sent it.
    const shares = prefixCacheShares([call('system\nA\nuser\nx', 0), call('system\nB\nuser\ny', 0, 'react-text')]);
    expect(shares.map((share) => [share.mode, share.servedAcrossBench['exact']])).toEqual([
      ['senseact', 0],
      ['react-text', estimateTokens('system\n')],
    ]);
    const text = formatPrefixCacheShares(prefixCacheShares([call('user\nA', 0), call('system\nB', 0)]));
    expect(text).toMatch(/senseact\s+planner\s+2\s+\d+\s+0\.0%\s+0\.0%\s+0\.0%\s+0\.0%/);
    expect(text.split('\n').every((line) => line.length <= 120)).toBe(true);
  });
});
