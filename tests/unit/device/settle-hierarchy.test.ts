import { describe, expect, it } from 'vitest';
import { settleHierarchy } from '../../../src/device/settle-hierarchy.js';

function scripted(sources: string[]): { pull: () => Promise<string>; pulls: () => number } {
  let index = 0;
  return {
    pull: async () => sources[Math.min(index++, sources.length - 1)] ?? '',
    pulls: () => index,
  };
}

describe('settleHierarchy', () => {
  const virtual = () => {
    let time = 0;
    return { now: () => time, sleep: async (ms: number) => { time += ms; } };
  };

  it('returns after two consecutive equal hierarchies', async () => {
    const source = scripted(['a', 'b', 'b', 'c']);
    const result = await settleHierarchy(source.pull, { intervalMs: 10, timeoutMs: 1_000, ...virtual() });
    expect(result).toEqual({ xml: 'b', polls: 3, settled: true });
  });

  it('gives up at the timeout with the last hierarchy, unsettled', async () => {
    const source = scripted(['1', '2', '3', '4', '5', '6', '7', '8']);
    const result = await settleHierarchy(source.pull, { intervalMs: 100, timeoutMs: 250, ...virtual() });
    expect(result.settled).toBe(false);
    expect(result.polls).toBe(4);
    expect(result.xml).toBe('4');
  });

  it('pulls once when settling is off', async () => {
    const source = scripted(['a', 'b']);
    expect(await settleHierarchy(source.pull, { intervalMs: 10, timeoutMs: 0 })).toEqual({ xml: 'a', polls: 1, settled: true });
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    let index = 0;
    const pull = async (): Promise<string> => {
      if (index++ === 1) controller.abort(reason);
      return String(index);
    };
    await expect(settleHierarchy(pull, { intervalMs: 0, timeoutMs: 10_000, signal: controller.signal })).rejects.toBe(reason);
  });
});
