import { afterEach } from 'vitest';
import { startMockOpenAiServer, type MockChatRequest, type MockOpenAiServer, type MockReply } from '../../src/model/mock-openai-server.js';

/** Retry settings that keep a test's retries to milliseconds (the mock server answers at once). */
export const fastRetry = { initialDelayMs: 1, maxDelayMs: 5, budgetMs: 10_000 };

/** Serves each test its own loopback mock endpoint (see {@link mockEndpointPerTest}). */
export interface MockEndpointPerTest {
  /** Starts this test's mock OpenAI-compatible server answering with `reply`; it is closed after the test. */
  start(reply: (request: MockChatRequest) => MockReply | Promise<MockReply>): Promise<MockOpenAiServer>;
}

/**
 * The loopback mock endpoints of one test file: every server `start` opens in a test is
 * closed after that test, passed or failed. Call once at the top of the file.
 */
export function mockEndpointPerTest(): MockEndpointPerTest {
  const open: MockOpenAiServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return {
    start: async (reply) => {
      const server = await startMockOpenAiServer({ reply });
      open.push(server);
      return server;
    },
  };
}
