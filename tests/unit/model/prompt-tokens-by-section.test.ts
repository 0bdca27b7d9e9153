import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { gateMessages, plannerMessages, reactMessages, verifierMessages } from '../../../src/agent/prompts/agent-prompts.js';
import { estimatePromptTokens, estimateTokens } from '../../../src/model/estimate-tokens.js';
import { sectionedContent } from '../../../src/model/prompt-section.js';
import { promptTokensBySection, type SectionedMessage } from '../../../src/model/prompt-tokens-by-section.js';

const view = 'app com.android.settings activity .Settings\nblock b1 "Settings"\n  [n3a5d] click "Display" — "Dark theme, font size, brightness"';
const planner = (extra: { certificates?: string[]; rejection?: string } = {}) =>
  plannerMessages({ instruction: 'Turn my phone to Dark theme', allowedPackages: ['com.android.settings'], view, history: [{ intent: 'Open Settings', outcome: 'pass', note: '' }], certificates: extra.certificates ?? [], ...(extra.rejection ? { rejection: extra.rejection } : {}) });

function sum(sections: Partial<Record<string, number>>): number {
  return Object.values(sections).reduce<number>((total, value) => total + (value ?? 0), 0);
}

describe('promptTokensBySection', () => {
  it("splits the planner's prompt by how it was built, and the sections sum to the prompt's estimate", () => {
    const messages = planner();
    const sections = promptTokensBySection(messages);
    expect(Object.keys(sections).sort()).toEqual(['framing', 'history', 'system', 'task', 'view']);
    expect(sections.system).toBe(estimateTokens(messages[0]!.content));
    expect(sections.view).toBe(estimateTokens(`<screen>\n${view}\n</screen>`));
    expect(sum(sections)).toBe(estimatePromptTokens(messages));
  });

  it('follows the prompt when a part is added: certificates and feedback appear as their own sections', () => {
    const plain = promptTokensBySection(planner());
    const richer = promptTokensBySection(planner({ certificates: ['scope Settings action click "Display" effect new-page'], rejection: 'unit "n9" is not on this screen' }));
    expect(plain.certificates).toBeUndefined();
    expect(richer.certificates).toBeGreaterThan(10);
    expect(richer.feedback).toBeGreaterThan(5);
    expect(richer.view).toBe(plain.view);
    expect(sum(richer)).toBe(estimatePromptTokens(planner({ certificates: ['scope Settings action click "Display" effect new-page'], rejection: 'unit "n9" is not on this screen' })));
  });

  it('counts a message whose text no longer matches its parts under its role, not under stale labels', () => {
    const labelled = sectionedContent([{ section: 'task', text: 'Task: x' }, { section: 'view', text: '<screen>\nv\n</screen>' }]);
    const edited: SectionedMessage = { role: 'user', content: labelled.content.replace('Task: x', 'Goal: x'), sections: labelled.sections };
    expect(promptTokensBySection([edited])).toEqual({ other: estimateTokens(edited.content), framing: 4 });
    expect(Object.keys(promptTokensBySection([{ role: 'user', ...labelled }])).sort()).toEqual(['framing', 'task', 'view']);
  });

  it('puts screenshots under images at their real cost, and labels the other prompts too', () => {
    const png = new Uint8Array(PNG.sync.write(new PNG({ width: 1080, height: 2400 })));
    const react = promptTokensBySection(reactMessages({ instruction: 'Turn on dark theme', allowedPackages: ['com.android.settings'], view, previous: ['click "Display"'], png }));
    expect(react.images).toBe(1445);
    expect(react.history).toBeGreaterThan(0);
    const gate = promptTokensBySection(gateMessages({ intent: 'Star the note', failure: 'no change after the tap', candidates: ['[n1] [0,0,10,10] click ""'], png, detail: 'low' }));
    expect(gate).toMatchObject({ images: 85 });
    expect(Object.keys(gate).sort()).toEqual(['feedback', 'framing', 'images', 'system', 'task', 'view']);
    const verifier = verifierMessages({ intent: 'Open Display', expectation: 'exists(text="Dark theme")', reason: 'two nodes match', view });
    expect(sum(promptTokensBySection(verifier))).toBe(estimatePromptTokens(verifier));
  });
});
