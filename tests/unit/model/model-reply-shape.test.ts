// A model implementation (a user's own) whose reply has counts that are not counts is
// stopped at the metering boundary with the field, the value and what to fix, not deep in
// the trace writer.
import { describe, expect, it } from 'vitest';
import type { LanguageModel, ModelReply } from '../../../src/model/language-model.js';
import { MeteredLanguageModel } from '../../../src/model/metered-language-model.js';
import { ModelReplyShapeError } from '../../../src/model/model-reply-shape-error.js';
import { isModelInfrastructureError } from '../../../src/model/is-model-infrastructure-error.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';

function modelReplying(reply: unknown): LanguageModel {
  return { provider: 'my-custom-model', modelName: () => 'custom', generate: async () => reply as ModelReply };
}

const good: ModelReply = { text: '{}', usage: { promptTokens: 12, completionTokens: 3 }, latencyMs: 5, model: 'custom' };

describe('MeteredLanguageModel at the boundary of a model implementation', () => {
  it('refuses non-integer token counts, naming the field and the value', async () => {
    const ledger = new UsageLedger();
    const model = new MeteredLanguageModel(modelReplying({ ...good, usage: { promptTokens: 12.5, completionTokens: -1 } }), { ledger });
    const error = await model.generate({ role: 'planner', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(ModelReplyShapeError.isInstance(error)).toBe(true);
    expect(isModelInfrastructureError(error)).toBe(true);
    expect((error as Error).message).toContain('The model my-custom-model (role planner) returned a reply SenseAct cannot count: usage.promptTokens 12.5 is not a whole number ≥ 0; usage.completionTokens -1 is not a whole number ≥ 0. Fix its generate()');
  });

  it('says what is missing from a reply that is not a ModelReply at all', async () => {
    const model = new MeteredLanguageModel(modelReplying({ text: 42 }), { ledger: new UsageLedger() });
    await expect(model.generate({ role: 'verifier', messages: [] })).rejects.toThrow(/text 42 is not a string; model undefined is not a string; latencyMs undefined is not a number ≥ 0; usage undefined is not an object/);
  });

  it('passes a well-formed reply through unchanged (negative control)', async () => {
    const model = new MeteredLanguageModel(modelReplying(good), { ledger: new UsageLedger() });
    expect(await model.generate({ role: 'planner', messages: [] })).toEqual(good);
  });
});
