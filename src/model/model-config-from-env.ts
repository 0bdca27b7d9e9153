import { ModelConfigError } from './model-config-error.js';
import { modelRoles, type ModelRole } from './model-role.js';

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
}

/** The resolved model configuration, with where each value came from and what is missing. */
export interface ModelConfig extends ModelEndpointConfig {
  readonly baseUrlSource: ConfigSource;
  readonly apiKeySource: ConfigSource | undefined;
  /** False for loopback endpoints (Ollama, vLLM, LM Studio, llama.cpp on this machine). */
  readonly apiKeyRequired: boolean;
  readonly roles: Readonly<Record<ModelRole, RoleModelConfig>>;
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
  readonly models?: Partial<Record<ModelRole, string>>;
}

/**
 * Resolves the model configuration from options and the environment. Base URL:
 * option `baseUrl`, `SENSEACT_BASE_URL`, `OPENAI_BASE_URL`, else OpenAI. Key: option
 * `apiKey`, `SENSEACT_API_KEY`, `OPENAI_API_KEY` (not required for loopback endpoints).
 * Model per role: option `models[role]`, `SENSEACT_<ROLE>_MODEL`, the role it borrows
 * from (verifier/certifier/extractor → planner, judge → verifier), `SENSEACT_MODEL`, a
 * default. Timeout per attempt: option `timeoutMs`, `SENSEACT_MODEL_TIMEOUT_MS`. Never
 * throws: problems are listed; {@link requireModelConfig} throws on them.
 */
export function modelConfigFromEnv(env: Readonly<Record<string, string | undefined>>, overrides: ModelConfigOverrides = {}): ModelConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

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
  const apiKeyRequired = host === undefined || !isLoopback(host);
  if (apiKeyRequired && apiKey === undefined) {
    problems.push(
      `No API key for the model endpoint ${baseUrl}: pass the apiKey option or set SENSEACT_API_KEY (or OPENAI_API_KEY). ` +
        'For a local server without keys, point SENSEACT_BASE_URL at 127.0.0.1.',
    );
  }

  let timeoutMs = overrides.timeoutMs;
  const timeoutText = read('SENSEACT_MODEL_TIMEOUT_MS');
  if (timeoutMs === undefined && timeoutText !== undefined) {
    const parsed = Number(timeoutText);
    if (Number.isFinite(parsed) && parsed > 0) timeoutMs = parsed;
    else problems.push(`SENSEACT_MODEL_TIMEOUT_MS must be a positive number of milliseconds, got ${JSON.stringify(timeoutText)} (or pass the timeoutMs option).`);
  }

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
  const models = Object.fromEntries(modelRoles.map((role) => [role, roles[role].model])) as Record<ModelRole, string>;

  return {
    baseUrl,
    baseUrlSource,
    apiKey,
    apiKeySource,
    apiKeyRequired,
    models,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    roles,
    ready: problems.length === 0,
    problems,
  };
}

/**
 * Throws {@link ModelConfigError} when `config` cannot make calls, listing every problem;
 * `roles` names the roles the caller is about to use (for the message).
 */
export function requireModelConfig(config: ModelConfig, roles: readonly ModelRole[] = modelRoles): ModelConfig {
  if (config.problems.length === 0) return config;
  throw new ModelConfigError(`The model configuration for ${roles.join(', ')} is incomplete:\n- ${config.problems.join('\n- ')}`);
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
