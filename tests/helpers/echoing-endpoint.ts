// An OpenAI-compatible endpoint that echoes the caller's API key back: in its replies (an
// intent, then an answer) and, after a few calls, in a 401 body. Each echo carries the key
// in every spelling a file could hold: raw, base64 (alone and inside a Basic credential),
// URL-encoded, JSON- and HTML-escaped, and less its last 4 characters. For the redaction
// test and scripts/attack-senseact.ts: no spelling may reach a file a run writes.
import { startMockOpenAiServer, type MockOpenAiServer } from '../../src/model/mock-openai-server.js';

/** The spellings of `key` the endpoint echoes, by name (written here, independent of the redactor). */
export function echoedSpellings(key: string): Record<string, string> {
  return {
    raw: key,
    base64: Buffer.from(key).toString('base64'),
    basicCredential: Buffer.from(`user:${key}`).toString('base64'),
    urlEncoded: encodeURIComponent(key),
    htmlEscaped: key.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    jsonEscaped: JSON.stringify(key).slice(1, -1),
    prefix: key.slice(0, -4),
  };
}

/** Starts the echoing endpoint; calls after the `repliesBeforeRefusal`-th get a 401 quoting the key. */
export async function startEchoingEndpoint(repliesBeforeRefusal = 6): Promise<MockOpenAiServer> {
  let calls = 0;
  return startMockOpenAiServer({
    reply: (request) => {
      calls++;
      const key = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      const echo = Object.entries(echoedSpellings(key)).map(([name, spelling]) => `${name} ${spelling}`).join(', ');
      if (calls > repliesBeforeRefusal) return { status: 401, body: { error: { message: `Incorrect API key provided: ${echo}`, type: 'invalid_request_error' } } };
      const react = request.texts[0]?.includes('one action per turn') === true;
      const first = request.texts.some((text) => text.includes('(none yet)'));
      // First an action whose intent holds the key (it reaches history and certificates), then FINISH with it as the answer.
      if (react) return JSON.stringify(first ? { thought: `Use the key ${echo}`, action: { unit: 'nav-home' } } : { thought: echo, action: null, finish: true, answer: `the key is ${echo}` });
      return JSON.stringify(first ? { intent: `Use the key ${echo}`, expectation: 'screenChanged', commitment: [{ unit: 'nav-home' }] } : { intent: 'done', finish: true, answer: `the key is ${echo}` });
    },
  });
}
