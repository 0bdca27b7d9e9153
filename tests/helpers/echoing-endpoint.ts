// An OpenAI-compatible endpoint that echoes the caller's API key back: in its replies (an
// intent, then an answer) and, after a few calls, in a 401 body. For the redaction test and
// scripts/attack-senseact.ts: the key must reach no file a run writes.
import { startMockOpenAiServer, type MockOpenAiServer } from '../../src/model/mock-openai-server.js';

/** Starts the echoing endpoint; calls after the `repliesBeforeRefusal`-th get a 401 quoting the key. */
export async function startEchoingEndpoint(repliesBeforeRefusal = 6): Promise<MockOpenAiServer> {
  let calls = 0;
  return startMockOpenAiServer({
    reply: (request) => {
      calls++;
      const key = (request.headers['authorization'] ?? '').replace(/^Bearer /, '');
      if (calls > repliesBeforeRefusal) return { status: 401, body: { error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request_error' } } };
      const react = request.texts[0]?.includes('one action per turn') === true;
      const first = request.texts.some((text) => text.includes('(none yet)'));
      // First an action whose intent holds the key (it reaches history and certificates), then FINISH with it as the answer.
      if (react) return JSON.stringify(first ? { thought: `Use the key ${key}`, action: { unit: 'nav-home' } } : { thought: key, action: null, finish: true, answer: `the key is ${key}` });
      return JSON.stringify(first ? { intent: `Use the key ${key}`, expectation: 'screenChanged', commitment: [{ unit: 'nav-home' }] } : { intent: 'done', finish: true, answer: `the key is ${key}` });
    },
  });
}
