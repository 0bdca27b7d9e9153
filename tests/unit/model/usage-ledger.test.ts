import { describe, expect, it } from 'vitest';
import { MeteredLanguageModel, MeteredVisionModel } from '../../../src/model/metered-language-model.js';
import type { ModelCallRecord } from '../../../src/model/model-call-record.js';
import { ScriptedLanguageModel, ScriptedVisionModel } from '../../../src/model/scripted-language-model.js';
import { UsageLedger } from '../../../src/model/usage-ledger.js';

describe('UsageLedger with metered models', () => {
  it('sums tokens, latency, images and bytes per role and per model, including failed calls', async () => {
    const ledger = new UsageLedger();
    const records: ModelCallRecord[] = [];
    const text = new MeteredLanguageModel(
      new ScriptedLanguageModel({
        replies: [
          { text: 'p1', usage: { promptTokens: 100, completionTokens: 10 }, model: 'planner-m', latencyMs: 50 },
          { text: 'v1', usage: { promptTokens: 40, completionTokens: 4 }, model: 'verifier-m', latencyMs: 20 },
          { error: new Error('boom') },
        ],
      }),
      { ledger, onCall: (record) => records.push(record) },
    );
    const vision = new MeteredVisionModel(
      new ScriptedVisionModel({ replies: [{ text: 'region 2', usage: { promptTokens: 900, completionTokens: 5 }, model: 'vlm-m', latencyMs: 300 }] }),
      { ledger, onCall: (record) => records.push(record) },
    );

    await text.generate({ role: 'planner', messages: [{ role: 'user', content: 'plan' }] });
    await text.generate({ role: 'verifier', messages: [{ role: 'user', content: 'verify' }] });
    await expect(text.generate({ role: 'planner', messages: [{ role: 'user', content: 'again' }] })).rejects.toThrow('boom');
    await vision.generate({ role: 'vision', messages: [{ role: 'user', content: 'see', images: [{ png: new Uint8Array(1000) }, { png: new Uint8Array(24) }] }] });

    expect(ledger.entries).toHaveLength(4);
    expect(ledger.totals()).toMatchObject({ calls: 4, failedCalls: 1, promptTokens: 1040, completionTokens: 19, images: 2, imageBytes: 1024 });
    // The failed call's latency is measured by the wrapper; the others are the scripted ones.
    expect(ledger.totals().latencyMs - (ledger.entries[2]?.latencyMs ?? Number.NaN)).toBeCloseTo(370, 6);
    const byRole = ledger.byRole();
    expect(byRole.planner).toMatchObject({ calls: 2, failedCalls: 1, promptTokens: 100 });
    expect(byRole.vision).toMatchObject({ calls: 1, images: 2, imageBytes: 1024 });
    expect(byRole.judge).toBeUndefined();
    expect([...ledger.byModel().keys()]).toEqual(['planner-m', 'verifier-m', 'scripted', 'vlm-m']);
    expect(ledger.totals(3)).toMatchObject({ calls: 1, images: 2 });

    const summary = JSON.parse(JSON.stringify(ledger.summary())) as ReturnType<UsageLedger['summary']>;
    expect(summary.byModel['vlm-m']).toMatchObject({ calls: 1, images: 2 });
    expect(summary.byRole.verifier).toMatchObject({ calls: 1, promptTokens: 40 });
    expect(summary.totals.calls).toBe(4);
    expect(records[2]?.error).toMatchObject({ name: 'Error', message: 'boom' });
    const visionRecord = records[3];
    expect(visionRecord?.messages[0]?.images?.map((image) => image.bytes)).toEqual([1000, 24]);
    expect(visionRecord?.messages[0]?.images?.[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(visionRecord)).not.toContain('"png"');
  });

  it('enters a call once even when the observer throws', async () => {
    const ledger = new UsageLedger();
    const model = new MeteredLanguageModel(new ScriptedLanguageModel({ replies: ['fine'] }), {
      ledger,
      onCall: () => {
        throw new Error('trace closed');
      },
    });
    await expect(model.generate({ role: 'planner', messages: [] })).rejects.toThrow('trace closed');
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.entries[0]?.failed).toBe(false);
  });
});
