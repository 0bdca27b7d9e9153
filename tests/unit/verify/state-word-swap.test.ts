import { describe, expect, it } from 'vitest';
import { stateWordSwap } from '../../../src/verify/state-word-swap.js';

describe('stateWordSwap', () => {
  it('holds for one state word swapped for its opposite, the rest kept', () => {
    expect(stateWordSwap('Open Menu', 'Close menu')).toBe(true);
    expect(stateWordSwap('STOP SERVICE', 'START SERVICE')).toBe(true);
    expect(stateWordSwap('Grid view', 'List view')).toBe(true);
    expect(stateWordSwap('震动已关闭', '震动已开启')).toBe(true);
    expect(stateWordSwap('开启', '关闭')).toBe(true);
    expect(stateWordSwap('Mute', 'Unmute')).toBe(true);
  });

  it('fails for any other change of the text', () => {
    expect(stateWordSwap('搜索 秒针', '搜索 五十年以后')).toBe(false);
    expect(stateWordSwap('Add alarm', 'Add city')).toBe(false);
    expect(stateWordSwap('Open Menu', 'Open Menu')).toBe(false);
    expect(stateWordSwap('Open Menu', 'Close the menu now')).toBe(false);
    expect(stateWordSwap('Show 415 results', 'Show 12 results')).toBe(false);
    expect(stateWordSwap('Un', 'Unun')).toBe(false);
  });
});
