import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactSecretsDeep, redactedMarker } from '../../../src/util/redact-secrets.js';
import { Redactor, secretsFromEnv, urlPasswords } from '../../../src/util/redactor.js';

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
    // Real Amazon product text that a case-insensitive "Basic <token>" rule redacted.
    const product = 'content-desc="Trendy Queen Womens Oversized Long Sleeve T Shirts 2025 Basic Crewneck Tee Fall Tops"';
    expect(redactSecrets(product)).toBe(product);
    expect(redactSecrets('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe('Authorization: Basic [REDACTED]');
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

describe('redactSecrets on real UI dumps', () => {
  const dumpsRoot = resolve(import.meta.dirname, '../../..', 'tests/fixtures/dump-corpus');
  const files = ['appium-uia2', 'uiautomator-dump'].flatMap((dialect) =>
    readdirSync(join(dumpsRoot, dialect))
      .filter((name) => name.endsWith('.xml'))
      .map((name) => join(dumpsRoot, dialect, name)),
  );

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('changes none of them (UI text holds no keys; flags like password="false" survive)', () => {
    const altered = files.filter((file) => {
      const xml = readFileSync(file, 'utf8');
      return redactSecrets(xml) !== xml;
    });
    expect(altered).toEqual([]);
  });
});

describe('Redactor: every spelling of a secret', () => {
  const key = 'zq-key/7Hc2+LmQ9&vX41';
  it.each([
    ['raw', key],
    ['base64', Buffer.from(key).toString('base64')],
    ['base64 inside a Basic credential', Buffer.from(`lab-user:${key}`).toString('base64')],
    ['base64url', Buffer.from(key).toString('base64url')],
    ['URL-encoded', encodeURIComponent(key)],
    ['JSON-escaped', JSON.stringify(key)],
    ['HTML-escaped', key.replace(/&/g, '&amp;')],
    ['less its last 4 characters', `${key.slice(0, -4)}...`],
  ])('%s', (_name, spelling) => {
    const redacted = new Redactor([key]).text(`echo: ${spelling} end`);
    expect(redacted).toContain(redactedMarker);
    expect(redacted).not.toContain(key.slice(3, 12));
    // Negative control: another key's spellings stay as they are.
    expect(new Redactor(['another-key-0000000']).text(`echo: ${spelling} end`)).toBe(`echo: ${spelling} end`);
  });

  it('the password of a URL, from the environment too; the user name and host stay', () => {
    expect(redactSecrets('connect ECONNREFUSED http://lab-user:pw-Base-9Qm2@10.0.0.7:8000/v1')).toBe(`connect ECONNREFUSED http://lab-user:${redactedMarker}@10.0.0.7:8000/v1`);
    expect(urlPasswords('http://u:p%40ss-word-1@host/v1')).toEqual(['p%40ss-word-1', 'p@ss-word-1']);
    expect(new Redactor(secretsFromEnv({ SENSEACT_BASE_URL: 'http://u:p%40ss-word-1@host/v1' })).text('said p@ss-word-1')).toBe(`said ${redactedMarker}`);
    expect(urlPasswords('http://host/v1')).toEqual([]);
  });
});
