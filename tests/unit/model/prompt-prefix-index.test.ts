import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { cachedTokensUnder, prefixCacheModels } from '../../../src/model/prefix-cache-model.js';
import { PromptPrefixIndex } from '../../../src/model/prompt-prefix-index.js';
import { sharedPrefixTokens } from '../../../src/model/shared-prompt-prefix.js';

describe('PromptPrefixIndex', () => {
  it('finds the longest start shared with any earlier prompt, as a scan of every earlier prompt does', () => {
    const prompts = ['system\nA\nuser\nTask: b', 'system\nA\nuser\nTask: a', 'system\nB', 'system\nA\nuser\nTask: ab', 'other', 'system\nA\nuser\nTask: b\n1.', 'system\nA\nuser\nTask: ', 'system\nA\nuser\nTask: b'];
    const index = new PromptPrefixIndex();
    const earlier: string[] = [];
    for (const prompt of prompts) {
      expect(index.sharedTokens(prompt)).toBe(sharedPrefixTokens(prompt, earlier));
      index.add(prompt);
      earlier.push(prompt);
    }
    expect(index.size).toBe(prompts.length);
    expect(index.sharedChars('system\nA\nuser\nTask: b\n1. x')).toBe('system\nA\nuser\nTask: b\n1.'.length);
  });

  it('shares nothing with an empty index or prompts that start otherwise (negative controls)', () => {
    const index = new PromptPrefixIndex();
    expect(index.sharedChars('system\nA')).toBe(0);
    index.add('user\nTask: a');
    expect(index.sharedTokens('system\nA')).toBe(0);
  });
});

describe('cachedTokensUnder', () => {
  const model = (name: string) => prefixCacheModels.find((candidate) => candidate.name === name)!;

  it('serves whole blocks of the shared start: exact all of it, vLLM 16-token blocks', () => {
    expect(cachedTokensUnder(model('exact'), 250, 555)).toBe(250);
    expect(cachedTokensUnder(model('vllm'), 250, 555)).toBe(240);
    expect(cachedTokensUnder(model('vllm'), 15, 555)).toBe(0);
    // Never more than the prompt.
    expect(cachedTokensUnder(model('exact'), 600, 555)).toBe(555);
  });

  it('OpenAI: nothing below 1,024 prompt tokens or a shorter shared start, then steps of 128', () => {
    expect(cachedTokensUnder(model('openai'), 550, 555)).toBe(0);
    expect(cachedTokensUnder(model('openai'), 1000, 2000)).toBe(0);
    expect(cachedTokensUnder(model('openai'), 1100, 2000)).toBe(1024);
    expect(cachedTokensUnder(model('openai'), 1300, 2000)).toBe(1280);
  });

  it('counts tokens of the start with the local estimate', () => {
    const index = new PromptPrefixIndex();
    index.add('system\nOperate an Android app.\nuser\nTask: one');
    expect(index.sharedTokens('system\nOperate an Android app.\nuser\nTask: two')).toBe(estimateTokens('system\nOperate an Android app.\nuser\nTask: '));
  });
});
