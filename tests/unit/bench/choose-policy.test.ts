// --policy auto never turns a simulator bench into model calls; on a real device it is
// the model when one is configured; each choice says which policy and why in one line of
// at most 120 columns.
import { describe, expect, it } from 'vitest';
import { choosePolicy, type PolicyChoiceInput } from '../../../src/bench/choose-policy.js';
import { modelConfigFromEnv } from '../../../src/model/model-config-from-env.js';

const keyed = modelConfigFromEnv({ OPENAI_API_KEY: 'sk-test-not-a-key', SENSEACT_MODEL: 'gpt-4o' });
const none = modelConfigFromEnv({});
const base: PolicyChoiceInput = { wanted: 'auto', simulated: true, config: keyed, cassette: undefined, dryRun: false, temperature: undefined };

describe('choosePolicy', () => {
  it('auto on the simulator is the oracle, with a key in the environment or without, and says why', () => {
    expect(keyed.ready).toBe(true);
    const withKey = choosePolicy(base);
    expect(withKey.policy).toBe('oracle');
    expect(withKey.notice).toBe('policy: oracle, because the device is the simulator: no model is called; --policy llm would call gpt-4o.');
    expect(withKey.notice).not.toContain('\n');
    expect(choosePolicy({ ...base, config: none })).toEqual({ policy: 'oracle', notice: 'policy: oracle, because the device is the simulator: no model is called; --policy llm needs a model.' });
    // A cassette in the environment is no request either.
    expect(choosePolicy({ ...base, cassette: { mode: 'replay', path: 'calls.jsonl' } }).policy).toBe('oracle');
  });

  it('--policy llm on the simulator is the model (negative control of the above)', () => {
    const asked = choosePolicy({ ...base, wanted: 'llm' });
    expect(asked.policy).toBe('llm');
    expect(asked.notice).toMatch(/^policy: llm, because --policy llm was given: planner gpt-4o, vision gpt-4o at https:\/\/api\.openai\.com\/v1; every call is a model call\.$/);
  });

  it('auto on a real device is the model when one is configured, else the oracle', () => {
    const phone = { ...base, simulated: false };
    expect(choosePolicy(phone)).toMatchObject({ policy: 'llm', notice: expect.stringMatching(/^policy: llm, because a model is configured and the device is not the simulator/) });
    expect(choosePolicy({ ...phone, config: none })).toMatchObject({ policy: 'oracle', notice: expect.stringMatching(/^policy: oracle, because no model is configured \(npx senseact models --check\)/) });
  });

  it('every line without an endpoint in it fits 120 columns; a model name too long for that is left out', () => {
    const long = modelConfigFromEnv({ OPENAI_API_KEY: 'sk-test-not-a-key', SENSEACT_MODEL: 'a-fine-tuned-planner-with-a-long-name-2026-11' });
    const lines = [
      choosePolicy(base),
      choosePolicy({ ...base, config: none }),
      choosePolicy({ ...base, config: long }),
      choosePolicy({ ...base, wanted: 'oracle' }),
      choosePolicy({ ...base, simulated: false, config: none }),
      choosePolicy({ ...base, simulated: false, config: none, dryRun: true }),
      choosePolicy({ ...base, wanted: 'llm', config: none, dryRun: true }),
    ].map((choice) => choice.notice);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120);
    expect(lines[2]).toBe('policy: oracle, because the device is the simulator: no model is called; --policy llm would call the configured model.');
    // Negative control: the long name itself would have made the line too wide.
    expect(choosePolicy(base).notice.replace('gpt-4o', 'a-fine-tuned-planner-with-a-long-name-2026-11').length).toBeGreaterThan(120);
  });

  it('--policy oracle is the oracle anywhere; --policy llm without a model is refused, except in a dry run', () => {
    expect(choosePolicy({ ...base, simulated: false, wanted: 'oracle' }).notice).toMatch(/^policy: oracle, because --policy oracle was given/);
    expect(() => choosePolicy({ ...base, wanted: 'llm', config: none })).toThrow(/--policy llm needs a model: .*Or run with --policy oracle/);
    // The key problem ends with an address and a period: one period before "Or", not two ('127.0.0.1..').
    expect(none.problems.some((problem) => problem.endsWith('127.0.0.1.'))).toBe(true);
    expect(() => choosePolicy({ ...base, wanted: 'llm', config: none })).toThrow(/point SENSEACT_BASE_URL at 127\.0\.0\.1\. Or run with --policy oracle\.$/);
    const timeout = modelConfigFromEnv({ SENSEACT_MODEL_TIMEOUT_MS: 'soon' });
    expect(() => choosePolicy({ ...base, wanted: 'llm', config: timeout })).not.toThrow(/\.\./);
    expect(choosePolicy({ ...base, wanted: 'llm', config: none, dryRun: true }).policy).toBe('llm');
  });
});
