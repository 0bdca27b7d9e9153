// Type-only: WebdriverIO (half a second and ~50 MB to load) is loaded when a session opens, not by every CLI command.
import type { remote as Remote } from 'webdriverio';

/** A W3C element reference as WebDriver returns it. */
export type ElementReference = Readonly<Record<string, string>>;

/**
 * The WebDriver commands `AppiumDevice` sends, one method per endpoint. The real one is
 * a WebdriverIO `remote()` session (`connectWebdriverio`); tests pass a fake that
 * records the calls.
 */
export interface AppiumClient {
  readonly sessionId: string;
  /** The capabilities the server returned for the session. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  getPageSource(): Promise<string>;
  /** Base64 PNG. */
  takeScreenshot(): Promise<string>;
  executeScript(script: string, args: unknown[]): Promise<unknown>;
  performActions(actions: readonly object[]): Promise<void>;
  back(): Promise<void>;
  findElement(using: string, value: string): Promise<ElementReference>;
  elementClear(elementId: string): Promise<void>;
  getWindowRect(): Promise<{ x: number; y: number; width: number; height: number }>;
  deleteSession(): Promise<void>;
}

export interface ConnectRequest {
  /** Appium server URL, e.g. `http://127.0.0.1:4723`. */
  readonly url: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Per-request timeout of the HTTP client. */
  readonly requestTimeoutMs: number;
}

/** Creates a session; throws what the client library throws. */
export type AppiumConnector = (request: ConnectRequest) => Promise<AppiumClient>;

/** The URL with any `user:key@` removed, for messages and traces. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

/**
 * Opens a session through WebdriverIO `remote()` with its own retries off
 * (`connectionRetryCount: 0`): `AppiumDevice` decides what is retried.
 */
export const connectWebdriverio: AppiumConnector = async (request) => {
  const url = new URL(request.url);
  const remote: typeof Remote = (await import('webdriverio')).remote;
  const browser = await remote({
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    hostname: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    path: url.pathname === '' ? '/' : url.pathname,
    // Cloud grids take their credentials in the URL (https://user:key@hub.example.com/wd/hub).
    ...(url.username === '' ? {} : { user: decodeURIComponent(url.username), key: decodeURIComponent(url.password) }),
    capabilities: { ...request.capabilities } as WebdriverIO.Capabilities,
    connectionRetryCount: 0,
    connectionRetryTimeout: request.requestTimeoutMs,
    logLevel: 'silent',
  });
  return {
    sessionId: browser.sessionId,
    capabilities: browser.capabilities as Record<string, unknown>,
    getPageSource: () => browser.getPageSource(),
    takeScreenshot: () => browser.takeScreenshot(),
    executeScript: (script, args) => browser.executeScript(script, args as Array<string | number | boolean | object | null | undefined>) as Promise<unknown>,
    performActions: async (actions) => {
      await browser.performActions(actions as object[]);
    },
    back: async () => {
      await browser.back();
    },
    findElement: async (using, value) => {
      const found = (await browser.findElement(using, value)) as unknown;
      if (typeof found !== 'object' || found === null || 'error' in found) {
        const error = new Error(`No element matches ${using} '${value}'.`);
        error.name = 'no such element';
        throw error;
      }
      return found as ElementReference;
    },
    elementClear: async (elementId) => {
      await browser.elementClear(elementId);
    },
    getWindowRect: () => browser.getWindowRect(),
    deleteSession: async () => {
      await browser.deleteSession();
    },
  };
};
