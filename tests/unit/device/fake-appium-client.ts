import type { AppiumClient, AppiumConnector, ConnectRequest, ElementReference } from '../../../src/device/appium-client.js';

/** One recorded WebDriver call. */
export interface RecordedCall {
  readonly session: string;
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * An `AppiumClient` that records every call and answers from a script: `failures`
 * holds errors thrown by the next calls (in order), `sources` the page sources returned.
 */
export class FakeAppiumClient implements AppiumClient {
  readonly sessionId: string;
  readonly capabilities: Record<string, unknown> = { deviceScreenDensity: 420 };
  readonly calls: RecordedCall[];
  failures: unknown[] = [];
  sources: string[] = ['<hierarchy/>'];
  packageName = 'com.example';
  activity = '.Main';

  constructor(sessionId: string, calls: RecordedCall[]) {
    this.sessionId = sessionId;
    this.calls = calls;
  }

  private record(method: string, ...args: unknown[]): void {
    this.calls.push({ session: this.sessionId, method, args });
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
  }

  async getPageSource(): Promise<string> {
    this.record('getPageSource');
    return this.sources.length > 1 ? (this.sources.shift() ?? '') : (this.sources[0] ?? '');
  }
  async takeScreenshot(): Promise<string> {
    this.record('takeScreenshot');
    return '';
  }
  /** Answers of other `executeScript` calls by script name: a function of the call's argument object (it may throw). */
  scripts: Record<string, (args: Record<string, unknown>) => unknown> = {};

  async executeScript(script: string, args: unknown[]): Promise<unknown> {
    this.record('executeScript', script, ...args);
    if (script === 'mobile: getCurrentPackage') return this.packageName;
    if (script === 'mobile: getCurrentActivity') return this.activity;
    const answer = this.scripts[script];
    return answer ? answer((args[0] ?? {}) as Record<string, unknown>) : null;
  }
  async performActions(actions: readonly object[]): Promise<void> {
    this.record('performActions', actions);
  }
  async back(): Promise<void> {
    this.record('back');
  }
  async findElement(using: string, value: string): Promise<ElementReference> {
    this.record('findElement', using, value);
    return { 'element-6066-11e4-a52e-4f735466cecf': 'el-1' };
  }
  async elementClear(elementId: string): Promise<void> {
    this.record('elementClear', elementId);
  }
  async getWindowRect(): Promise<{ x: number; y: number; width: number; height: number }> {
    this.record('getWindowRect');
    return { x: 0, y: 0, width: 1080, height: 2400 };
  }
  async deleteSession(): Promise<void> {
    this.record('deleteSession');
  }
}

/** A connector handing out `FakeAppiumClient`s (session-1, session-2, ...) that share one call log. */
export class FakeConnector {
  readonly calls: RecordedCall[] = [];
  readonly requests: ConnectRequest[] = [];
  readonly clients: FakeAppiumClient[] = [];
  /** Errors thrown by the next connection attempts. */
  connectFailures: unknown[] = [];
  /** Applied to each new client before it is returned. */
  setup: (client: FakeAppiumClient) => void = () => undefined;

  readonly connect: AppiumConnector = async (request) => {
    this.requests.push(request);
    const failure = this.connectFailures.shift();
    if (failure !== undefined) throw failure;
    const client = new FakeAppiumClient(`session-${this.clients.length + 1}`, this.calls);
    this.setup(client);
    this.clients.push(client);
    return client;
  };
}

/** An error shaped like WebdriverIO's for a refused/reset connection. */
export function networkError(code: string): Error {
  return Object.assign(new Error(`Request failed with error code ${code}`), { code });
}

/** An error shaped like WebdriverIO's response error for a W3C error name. */
export function webdriverError(name: string, message = name): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
