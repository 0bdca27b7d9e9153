import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { ScriptedModelExhaustedError } from '../../../src/model/scripted-model-exhausted-error.js';

describe('ScriptedLanguageModel', () => {
  it('replies in order and records every call', async () => {
    const model = new ScriptedLanguageModel({ replies: ['one', { text: 'two', usage: { promptTokens: 7, completionTokens: 3 }, model: 'm2', latencyMs: 12 }] });
    const first = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'a' }] });
    const second = await model.generate({ role: 'verifier', messages: [{ role: 'user', content: 'b' }] });
    expect(first.text).toBe('one');
    expect(first.model).toBe('scripted');
    expect(first.usage.promptTokens).toBeGreaterThan(0);
    expect(first.usage.estimated).toBe(true);
    expect(second).toEqual({ text: 'two', usage: { promptTokens: 7, completionTokens: 3 }, model: 'm2', latencyMs: 12, finishReason: 'stop' });
    expect(model.calls.map((call) => [call.index, call.request.role, call.request.messages[0]?.content])).toEqual([
      [0, 'planner', 'a'],
      [1, 'verifier', 'b'],
    ]);
  });

  it('throws a clear error when the script runs out', async () => {
    const model = new ScriptedLanguageModel({ replies: ['only'] });
    await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'first' }] });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'the second question' }] }).catch((caught: unknown) => caught);
    expect(ScriptedModelExhaustedError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/1 reply but was called a 2nd time.*the second question/);
    expect(model.calls).toHaveLength(2);
  });

  it('answers by a function of the request', async () => {
    const model = new ScriptedLanguageModel({ replies: (request, index) => `${request.role}#${index}:${request.messages.at(-1)?.content ?? ''}` });
    expect((await model.generate({ role: 'judge', messages: [{ role: 'user', content: 'x' }] })).text).toBe('judge#0:x');
    expect((await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'y' }] })).text).toBe('planner#1:y');
  });

  it('honours an aborted signal before answering', async () => {
    const model = new ScriptedLanguageModel({ replies: ['never'] });
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(model.generate({ role: 'planner', messages: [], signal: controller.signal })).rejects.toThrow('stop now');
  });

  it('the vision double counts images into its estimated usage at their real size and detail', async () => {
    const model = new ScriptedVisionModel({ replies: ['a', 'b', 'c'] });
    const screenshot = new Uint8Array(PNG.sync.write(new PNG({ width: 1080, height: 2400 })));
    const without = await model.generate({ role: 'vision', messages: [{ role: 'user', content: 'look' }] });
    const high = await model.generate({ role: 'vision', messages: [{ role: 'user', content: 'look', images: [{ png: screenshot, detail: 'high' }] }] });
    const low = await model.generate({ role: 'vision', messages: [{ role: 'user', content: 'look', images: [{ png: screenshot, detail: 'low' }] }] });
    expect(high.usage.promptTokens - without.usage.promptTokens).toBe(1445);
    expect(low.usage.promptTokens - without.usage.promptTokens).toBe(85);
  });
});
