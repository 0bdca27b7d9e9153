import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsDeep, redactedMarker } from '../../../src/util/redact-secrets.js';

describe('redactSecrets', () => {
  it.each([
    ['openai key', 'key is sk-abcdefghijklmnopqrstuvwx ok', 'key is [REDACTED] ok'],
    ['project key', 'sk-proj-AbC_dEf-0123456789xyz', '[REDACTED]'],
    ['bearer header', 'Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer [REDACTED]'],
    ['short bearer token', 'authorization: Bearer abc123', 'authorization: Bearer [REDACTED]'],
    ['api_key pair', 'api_key=hunter2hunter2', 'api_key=[REDACTED]'],
    ['json pair', '{"apiKey": "abcd1234efgh"}', '{"apiKey": "[REDACTED]"}'],
    ['github token', 'ghp_abcdefghijklmnopqrstuvwxyz0123', '[REDACTED]'],
  ])('redacts a %s', (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('leaves UI flags and ordinary text alone', () => {
    const xml = '<node text="Ask me" password="false" resource-id="com.app:id/password" />';
    expect(redactSecrets(xml)).toBe(xml);
    expect(redactSecrets('skip the sk- prefix talk')).toBe('skip the sk- prefix talk');
  });

  it('redacts registered exact secrets of 8+ characters only', () => {
    expect(redactSecrets('my local key is localsecret99', ['localsecret99'])).toBe(`my local key is ${redactedMarker}`);
    expect(redactSecrets('none of this', ['none'])).toBe('none of this');
  });

  it('redacts deeply, by key name and by value, keeping non-string flags', () => {
    const value = { headers: { Authorization: 'whatever', 'x-api-key': 'abc12345' }, password: false, nested: [{ text: 'sk-abcdefghijklmnopqrstuv' }], png: new Uint8Array(2) };
    const redacted = redactSecretsDeep(value);
    expect(redacted).toEqual({ headers: { Authorization: redactedMarker, 'x-api-key': redactedMarker }, password: false, nested: [{ text: redactedMarker }], png: new Uint8Array(2) });
    expect(value.headers.Authorization).toBe('whatever');
  });
});
