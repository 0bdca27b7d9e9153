import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { promptPrefixText, sharedPrefixTokens } from '../../../src/model/shared-prompt-prefix.js';

describe('sharedPrefixTokens', () => {
  const system = { role: 'system', content: 'Operate an Android app for the user.' };
  const first = promptPrefixText([system, { role: 'user', content: 'Task: turn on Wi-Fi\n\nIntent history:\n(none yet)\n\n<screen>A</screen>' }]);
  const second = promptPrefixText([system, { role: 'user', content: 'Task: turn on Wi-Fi\n\nIntent history:\n1. Open Network → pass\n\n<screen>B</screen>' }]);

  it('counts the tokens of the longest start shared with an earlier prompt', () => {
    const shared = 'system\nOperate an Android app for the user.\nuser\nTask: turn on Wi-Fi\n\nIntent history:\n';
    expect(second.startsWith(shared)).toBe(true);
    expect(sharedPrefixTokens(second, [first])).toBe(estimateTokens(shared));
    expect(sharedPrefixTokens(second, ['system\nOther', first])).toBe(estimateTokens(shared));
  });

  it('is 0 with no earlier prompt, or none that starts the same (negative controls)', () => {
    expect(sharedPrefixTokens(second, [])).toBe(0);
    expect(sharedPrefixTokens(second, [promptPrefixText([{ role: 'user', content: 'Task: turn on Wi-Fi' }])])).toBe(0);
  });
});
