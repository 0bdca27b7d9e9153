import { generationEnvSuffixes, generationSettingsSchema, type GenerationSettings } from './generation-settings.js';
import { ModelConfigError } from './model-config-error.js';
import { modelRoles, type ModelRole } from './model-role.js';
import type { RetryPolicy } from './retry-policy.js';
import { structuredOutputModeSchema, type StructuredOutputMode } from './structured-output-mode.js';

/** The OpenAI endpoint used when neither an option nor the environment names one. */
export const defaultBaseUrl = 'https://api.openai.com/v1';

/** Model names used when nothing configures a role (OpenAI's names: change them for other endpoints). */
export const defaultModels: Readonly<Record<ModelRole, string>> = {
  planner: 'gpt-4o',
  verifier: 'gpt-4o-mini',
  vision: 'gpt-4o',
  certifier: 'gpt-4o-mini',
  judge: 'gpt-4o-mini',
  extractor: 'gpt-4o-mini',
};

/** The environment variable that names each role's model. */
export const modelEnvVars: Readonly<Record<ModelRole, string>> = {
  planner: 'SENSEACT_PLANNER_MODEL',
  verifier: 'SENSEACT_VERIFIER_MODEL',
  vision: 'SENSEACT_VISION_MODEL',
  certifier: 'SENSEACT_CERTIFIER_MODEL',
  judge: 'SENSEACT_JUDGE_MODEL',
  extractor: 'SENSEACT_EXTRACTOR_MODEL',
};

/** One variable for every role without its own (handy for a single local model). */
export const sharedModelEnvVar = 'SENSEACT_MODEL';

/** A text role without a model of its own borrows this role's model (vision never borrows a text model). */
const roleFallback: Readonly<Partial<Record<ModelRole, ModelRole>>> = {
  verifier: 'planner',
  certifier: 'planner',
  extractor: 'planner',
  judge: 'verifier',
};

/** Where a setting came from, for messages and `senseact config`-style listings. */
export type ConfigSource = 'option' | 'default' | `env:${string}` | `role:${ModelRole}`;

export interface RoleModelConfig {
  readonly model: string;
  readonly source: ConfigSource;
  /** True when something set this role (an option, its variable, a role it borrows from, SENSEACT_MODEL). */
  readonly explicit: boolean;
}

/** Endpoint, key and per-role models: what the OpenAI-compatible adapters need. */
export interface ModelEndpointConfig {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly models: Readonly<Record<ModelRole, string>>;
  /** Timeout of one HTTP attempt in milliseconds (`SENSEACT_MODEL_TIMEOUT_MS`); adapters default to 60000. */
  readonly timeoutMs?: number;
  /** Retries (`SENSEACT_MODEL_RETRIES` → `maxAttempts`, `SENSEACT_MODEL_RETRY_MAX_WAIT_MS` → `maxRetryAfterMs`); adapters default to `defaultRetryPolicy`. */
  readonly retry?: Partial<RetryPolicy>;
  /** How structured replies are requested (`SENSEACT_STRUCTURED`); adapters default to {@link defaultStructuredOutputMode}. */
  readonly structured?: StructuredOutputMode;
  /** Sampling and length settings per role (`SENSEACT_[<ROLE>_]TEMPERATURE`, `_TOP_P`, `_SEED`, `_MAX_TOKENS`); a request's own values win. */
  readonly generation?: Readonly<Partial<Record<ModelRole, GenerationSettings>>>;
}

/** The resolved model configuration, with where each value came from and what is missing. */
export interface ModelConfig extends ModelEndpointConfig {
  readonly baseUrlSource: ConfigSource;
  readonly apiKeySource: ConfigSource | undefined;
  /** False for loopback endpoints (Ollama, vLLM, LM Studio, llama.cpp on this machine). */
  readonly apiKeyRequired: boolean;
  readonly roles: Readonly<Record<ModelRole, RoleModelConfig>>;
  /** The structured-output mode in force (set, or the endpoint's default) and where it came from. */
  readonly structuredSource: ConfigSource;
  /** True when calls can be made: a key is present or none is needed. */
  readonly ready: boolean;
  /** Human-readable problems (each names the option and the environment variable). */
  readonly problems: readonly string[];
}

/** Values given directly (CLI flags, code) that win over the environment. */
export interface ModelConfigOverrides {
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly timeoutMs?: number;
  /** Our retries (`maxAttempts`, `maxRetryAfterMs`, ...), over `SENSEACT_MODEL_RETRIES` and `SENSEACT_MODEL_RETRY_MAX_WAIT_MS`. */
  readonly retry?: Partial<RetryPolicy>;
  readonly models?: Partial<Record<ModelRole, string>>;
  readonly structured?: StructuredOutputMode;
  /** Settings for every role (`all`) and per role; a role's own value wins over `all`, and options over the environment. */
  readonly generation?: Partial<Record<ModelRole | 'all', GenerationSettings>>;
}

/**
 * Resolves the model configuration from options and the environment. Base URL:
 * option `baseUrl`, `SENSEACT_BASE_URL`, `OPENAI_BASE_URL`, else OpenAI. Key: option
 * `apiKey`, `SENSEACT_API_KEY`, `OPENAI_API_KEY` (not required for loopback endpoints).
 * Model per role: option `models[role]`, `SENSEACT_<ROLE>_MODEL`, the role it borrows
 * from (verifier/certifier/extractor → planner, judge → verifier), `SENSEACT_MODEL`, a
 * default. Timeout per attempt: option `timeoutMs`, `SENSEACT_MODEL_TIMEOUT_MS`.
 * Structured output: option `structured`, `SENSEACT_STRUCTURED`, else the endpoint's safe
 * default. Sampling per role, each of temperature / top_p / seed / max_tokens: option
 * `generation[role]`, `SENSEACT_<ROLE>_<SETTING>`, option `generation.all`,
 * `SENSEACT_<SETTING>`. Never throws: problems are listed; {@link requireModelConfig}
 * throws on them.
 */
export function modelConfigFromEnv(env: Readonly<Record<string, string | undefined>>, overrides: ModelConfigOverrides = {}): ModelConfig {
  const problems: string[] = [];
  const read: EnvReader = (name) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const { baseUrl, baseUrlSource, host } = resolveBaseUrl(read, overrides, problems);
  const { apiKey, apiKeySource, apiKeyRequired } = resolveApiKey(read, overrides, { baseUrl, host }, problems);
  const timeoutMs = resolveTimeout(read, overrides, problems);
  const retry = resolveRetry(read, overrides.retry ?? {}, problems);
  const { structured, structuredSource } = resolveStructured(read, overrides, baseUrl, problems);
  const generation = resolveGeneration(read, overrides.generation ?? {}, problems);
  const roles = resolveRoles(read, overrides);
  const models = Object.fromEntries(modelRoles.map((role) => [role, roles[role].model])) as Record<ModelRole, string>;

  return {
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource,
    apiKeyRequired,
    models,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(Object.keys(retry).length === 0 ? {} : { retry }),
    structured,
    structuredSource,
    generation,
    roles,
    ready: problems.length === 0,
    problems,
  };
}

/** A variable of the environment, trimmed; undefined when unset or blank. */
type EnvReader = (name: string) => string | undefined;

/** The endpoint: option `baseUrl`, `SENSEACT_BASE_URL`, `OPENAI_BASE_URL`, else OpenAI; without trailing slashes, and its host when it is a URL. */
function resolveBaseUrl(read: EnvReader, overrides: ModelConfigOverrides, problems: string[]): { baseUrl: string; baseUrlSource: ConfigSource; host: string | undefined } {
  let baseUrl = defaultBaseUrl;
  let baseUrlSource: ConfigSource = 'default';
  if (overrides.baseUrl !== undefined) {
    baseUrl = overrides.baseUrl;
    baseUrlSource = 'option';
  } else {
    for (const name of ['SENSEACT_BASE_URL', 'OPENAI_BASE_URL']) {
      const value = read(name);
      if (value !== undefined) {
        baseUrl = value;
        baseUrlSource = `env:${name}`;
        break;
      }
    }
  }
  baseUrl = baseUrl.replace(/\/+$/, '');
  let host: string | undefined;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    problems.push(`The model base URL ${JSON.stringify(baseUrl)} (from ${describeSource(baseUrlSource, 'baseUrl', 'SENSEACT_BASE_URL')}) is not a URL; use e.g. http://127.0.0.1:8000/v1.`);
  }
  return { baseUrl, baseUrlSource, host };
}

/** The key: option `apiKey`, `SENSEACT_API_KEY`, `OPENAI_API_KEY`; required unless the endpoint is on this machine. */
function resolveApiKey(read: EnvReader, overrides: ModelConfigOverrides, endpoint: { readonly baseUrl: string; readonly host: string | undefined }, problems: string[]): { apiKey: string | undefined; apiKeySource: ConfigSource | undefined; apiKeyRequired: boolean } {
  let apiKey: string | undefined;
  let apiKeySource: ConfigSource | undefined;
  if (overrides.apiKey !== undefined && overrides.apiKey !== '') {
    apiKey = overrides.apiKey;
    apiKeySource = 'option';
  } else {
    for (const name of ['SENSEACT_API_KEY', 'OPENAI_API_KEY']) {
      const value = read(name);
      if (value !== undefined) {
        apiKey = value;
        apiKeySource = `env:${name}`;
        break;
      }
    }
  }
  const apiKeyRequired = endpoint.host === undefined || !isLoopback(endpoint.host);
  if (apiKeyRequired && apiKey === undefined) {
    problems.push(
      `No API key for the model endpoint ${endpoint.baseUrl}: pass the apiKey option or set SENSEACT_API_KEY (or OPENAI_API_KEY). ` +
        'For a local server without keys, point SENSEACT_BASE_URL at 127.0.0.1.',
    );
  }
  return { apiKey, apiKeySource, apiKeyRequired };
}

/** The timeout per attempt: option `timeoutMs`, `SENSEACT_MODEL_TIMEOUT_MS`; undefined for the client's default. */
function resolveTimeout(read: EnvReader, overrides: ModelConfigOverrides, problems: string[]): number | undefined {
  const timeoutMs = overrides.timeoutMs;
  const timeoutText = read('SENSEACT_MODEL_TIMEOUT_MS');
  if (timeoutMs !== undefined) {
    const problem = modelTimeoutProblem(timeoutMs);
    if (problem !== undefined) problems.push(`The timeoutMs option ${problem}.`);
    return timeoutMs;
  }
  if (timeoutText === undefined) return undefined;
  const parsed = Number(timeoutText);
  const problem = modelTimeoutProblem(parsed, JSON.stringify(timeoutText));
  if (problem === undefined) return parsed;
  problems.push(`SENSEACT_MODEL_TIMEOUT_MS ${problem} (or pass the timeoutMs option).`);
  return undefined;
}

/** Structured output: option `structured`, `SENSEACT_STRUCTURED`, else the endpoint's safe default. */
function resolveStructured(read: EnvReader, overrides: ModelConfigOverrides, baseUrl: string, problems: string[]): { structured: StructuredOutputMode; structuredSource: ConfigSource } {
  const structuredText = read('SENSEACT_STRUCTURED');
  if (overrides.structured !== undefined) return { structured: overrides.structured, structuredSource: 'option' };
  if (structuredText !== undefined) {
    const parsed = structuredOutputModeSchema.safeParse(structuredText.toLowerCase());
    if (parsed.success) return { structured: parsed.data, structuredSource: 'env:SENSEACT_STRUCTURED' };
    problems.push(`SENSEACT_STRUCTURED must be one of ${structuredOutputModeSchema.options.join(', ')}, got ${JSON.stringify(structuredText)} (or pass the structured option).`);
  }
  return { structured: defaultStructuredOutputMode(baseUrl), structuredSource: 'default' };
}

/**
 * The model per role: option `models[role]`, `SENSEACT_<ROLE>_MODEL`, the role it borrows
 * from when that one was named explicitly (not by `SENSEACT_MODEL`), `SENSEACT_MODEL`, a default.
 */
function resolveRoles(read: EnvReader, overrides: ModelConfigOverrides): Record<ModelRole, RoleModelConfig> {
  const roles = {} as Record<ModelRole, RoleModelConfig>;
  const resolveRole = (role: ModelRole): RoleModelConfig => {
    const done = roles[role] as RoleModelConfig | undefined;
    if (done !== undefined) return done;
    const option = overrides.models?.[role];
    let result: RoleModelConfig;
    const own = read(modelEnvVars[role]);
    const shared = read(sharedModelEnvVar);
    const borrowed = roleFallback[role];
    const borrowedConfig = borrowed === undefined ? undefined : resolveRole(borrowed);
    if (option !== undefined && option !== '') result = { model: option, source: 'option', explicit: true };
    else if (own !== undefined) result = { model: own, source: `env:${modelEnvVars[role]}`, explicit: true };
    else if (borrowed !== undefined && borrowedConfig?.explicit === true && borrowedConfig.source !== `env:${sharedModelEnvVar}`)
      result = { model: borrowedConfig.model, source: `role:${borrowed}`, explicit: true };
    else if (shared !== undefined) result = { model: shared, source: `env:${sharedModelEnvVar}`, explicit: true };
    else result = { model: defaultModels[role], source: 'default', explicit: false };
    roles[role] = result;
    return result;
  };
  for (const role of modelRoles) resolveRole(role);
  return roles;
}

/** The longest timer Node keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const longestTimerMs = 2_147_483_647;

/**
 * Why `timeoutMs` is no timeout of one model request (`must be …`), or undefined when it
 * is one: a whole number of milliseconds from 1 to 2147483647 (Node's longest timer; a
 * longer one would fire after 1 ms).
 */
export function modelTimeoutProblem(timeoutMs: number, shown: string = String(timeoutMs)): string | undefined {
  if (Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= longestTimerMs) return undefined;
  return `must be a whole number of milliseconds from 1 to ${longestTimerMs} (e.g. 60000 for a minute), got ${shown}`;
}

/**
 * Throws {@link ModelConfigError} when `config` cannot make calls, listing every problem;
 * `roles` names the roles the caller is about to use (for the message).
 */
export function requireModelConfig(config: ModelConfig, roles: readonly ModelRole[] = modelRoles): ModelConfig {
  if (config.problems.length === 0) return config;
  throw new ModelConfigError(`The model configuration for ${roles.join(', ')} is incomplete:\n- ${config.problems.join('\n- ')}`);
}

/**
 * The safe structured-output default for an endpoint: `json_schema` for OpenAI and for
 * servers on this machine (vLLM, Ollama ≥ 0.5, LM Studio and llama.cpp server accept
 * it), `json_object` for other hosts (what most OpenAI-compatible services accept). An
 * endpoint that rejects a mode is answered with the next weaker one (the chat client).
 */
export function defaultStructuredOutputMode(baseUrl: string): StructuredOutputMode {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return 'none';
  }
  return host === 'api.openai.com' || isLoopback(host) ? 'json_schema' : 'json_object';
}

/** The environment variable of one generation setting, for every role or for one. */
export function generationEnvVar(setting: keyof GenerationSettings, role?: ModelRole): string {
  return role === undefined ? `SENSEACT_${generationEnvSuffixes[setting]}` : `SENSEACT_${role.toUpperCase()}_${generationEnvSuffixes[setting]}`;
}

const generationKeys = Object.keys(generationEnvSuffixes) as (keyof GenerationSettings)[];

function resolveGeneration(
  read: (name: string) => string | undefined,
  options: Partial<Record<ModelRole | 'all', GenerationSettings>>,
  problems: string[],
): Partial<Record<ModelRole, GenerationSettings>> {
  const fromEnv = (role?: ModelRole): GenerationSettings => {
    const values: Record<string, number> = {};
    for (const key of generationKeys) {
      const name = generationEnvVar(key, role);
      const text = read(name);
      if (text === undefined) continue;
      const number = Number(text);
      const checked = generationSettingsSchema.shape[key].safeParse(number);
      if (text.trim() === '' || !checked.success) {
        problems.push(`${name} is not a valid ${key} (${JSON.stringify(text)}): ${checked.success ? 'empty' : (checked.error.issues[0]?.message ?? 'out of range')}.`);
        continue;
      }
      values[key] = number;
    }
    return values as GenerationSettings;
  };
  const shared = { ...fromEnv(), ...checkedOption(options.all, 'generation.all', problems) };
  const result: Partial<Record<ModelRole, GenerationSettings>> = {};
  for (const role of modelRoles) {
    const merged = { ...shared, ...fromEnv(role), ...checkedOption(options[role], `generation.${role}`, problems) };
    if (Object.keys(merged).length > 0) result[role] = merged;
  }
  return result;
}

function checkedOption(value: GenerationSettings | undefined, option: string, problems: string[]): GenerationSettings {
  if (value === undefined) return {};
  const parsed = generationSettingsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  problems.push(`The option ${option} is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}.`);
  return {};
}

/** True for hosts on this machine, where local model servers need no key. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || bare === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

function describeSource(source: ConfigSource, option: string, variable: string): string {
  if (source === 'option') return `option ${option}`;
  if (source === 'default') return `the default (option ${option}, env ${variable})`;
  return source.replace(/^env:/, 'environment variable ').replace(/^role:/, 'role ');
}

/**
 * Our retries from `SENSEACT_MODEL_RETRIES` (retries after the first request, a whole
 * number ≥ 0: `maxAttempts` = n + 1) and `SENSEACT_MODEL_RETRY_MAX_WAIT_MS` (the longest
 * Retry-After wait honoured), the options winning.
 */
function resolveRetry(read: (name: string) => string | undefined, option: Partial<RetryPolicy>, problems: string[]): Partial<RetryPolicy> {
  const retry: { -readonly [Key in keyof RetryPolicy]?: number } = {};
  const retries = read('SENSEACT_MODEL_RETRIES');
  if (retries !== undefined) {
    if (/^\d+$/.test(retries)) retry.maxAttempts = Number(retries) + 1;
    else problems.push(`SENSEACT_MODEL_RETRIES must be a whole number of retries ≥ 0 (0: none), got ${JSON.stringify(retries)} (or pass the retry.maxAttempts option).`);
  }
  const maxWait = read('SENSEACT_MODEL_RETRY_MAX_WAIT_MS');
  if (maxWait !== undefined) {
    const parsed = Number(maxWait);
    if (Number.isFinite(parsed) && parsed >= 0) retry.maxRetryAfterMs = parsed;
    else problems.push(`SENSEACT_MODEL_RETRY_MAX_WAIT_MS must be a number of milliseconds ≥ 0 (the longest Retry-After wait honoured), got ${JSON.stringify(maxWait)} (or pass the retry.maxRetryAfterMs option).`);
  }
  return { ...retry, ...option };
}
