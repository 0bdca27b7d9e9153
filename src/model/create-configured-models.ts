import { CassettePlayer, type CassetteUse } from './cassette-player.js';
import { CassetteRecorder } from './cassette-recorder.js';
import type { LanguageModel } from './language-model.js';
import type { ModelEndpointConfig } from './model-config-from-env.js';
import { modelRoles, type ModelRole } from './model-role.js';
import { OpenAiLanguageModel } from './openai-language-model.js';
import type { OpenAiModelOptions } from './openai-chat-client.js';
import { OpenAiVisionModel } from './openai-vision-model.js';
import { defaultBreakerOptions, EndpointBreaker } from './endpoint-breaker.js';
import { RecordingLanguageModel, RecordingVisionModel } from './recording-language-model.js';
import { ReplayingLanguageModel, ReplayingVisionModel } from './replaying-language-model.js';
import type { VisionModel } from './vision-model.js';
import type { Redactor } from '../util/redactor.js';

/** Where model replies come from: the endpoint, the endpoint with recording, or a cassette alone. */
export type CassetteMode = 'off' | 'record' | 'replay';

export interface ConfiguredModelsOptions extends Omit<OpenAiModelOptions, 'config'> {
  /** Endpoint, key and per-role models (`modelConfigFromEnv`). Unused in replay mode. */
  readonly config: ModelEndpointConfig;
  /** Record every call of the run into `path`, or replay the run from it (no endpoint is contacted). */
  readonly cassette?: { readonly mode: CassetteMode; readonly path: string };
  /** Exact secrets to keep out of the cassette besides key-shaped text. Default: the configured key. */
  readonly secrets?: readonly string[];
  /** The run's redaction pass (secrets and typed passwords); replaces `secrets` when given. */
  readonly redactor?: Redactor;
}

/** A text model and a vision model over one endpoint or one cassette; both serve every role. */
export interface ConfiguredModels {
  readonly language: LanguageModel;
  readonly vision: VisionModel;
  /** One line for logs, e.g. `openai-compatible http://127.0.0.1:8000/v1` or `replay runs/x.jsonl`. */
  readonly description: string;
  /**
   * The model that answers each role: the configured one, or when replaying the one the
   * cassette recorded (whatever the environment names now); a role the cassette never
   * recorded is absent.
   */
  readonly modelNames: Partial<Record<ModelRole, string>>;
  /** When replaying: how the replay used the cassette so far (after the runs, its unused recorded calls). */
  readonly cassetteUse?: () => CassetteUse;
}

/**
 * The composition helper for a CLI or a benchmark: OpenAI-compatible models from the
 * config, optionally wrapped to record into a cassette, or replaying models that need no
 * endpoint. Recording and replay share one cassette file between the text and the vision
 * model. Throws `ModelConfigError` (missing key) unless replaying, `CassetteReadError`
 * when replaying a missing or malformed cassette.
 */
export function createConfiguredModels(options: ConfiguredModelsOptions): ConfiguredModels {
  const mode = options.cassette?.mode ?? 'off';
  const path = options.cassette?.path ?? '';
  if (mode === 'replay') {
    const player = new CassettePlayer({ path });
    const modelNames: Partial<Record<ModelRole, string>> = {};
    for (const role of modelRoles) {
      const model = player.recordedModel(role);
      if (model !== undefined) modelNames[role] = model;
    }
    return { language: new ReplayingLanguageModel(player), vision: new ReplayingVisionModel(player), description: `replay ${path}`, modelNames, cassetteUse: () => player.use() };
  }
  const { cassette: _cassette, secrets: _secrets, redactor: _redactor, ...own } = options;
  // One breaker for the endpoint: the text and the vision model learn together that it is down.
  const clock = own.clock;
  const openAiOptions = { ...own, breaker: own.breaker ?? (clock ? new EndpointBreaker(defaultBreakerOptions, () => clock.now()) : new EndpointBreaker()) };
  const language = new OpenAiLanguageModel(openAiOptions);
  const vision = new OpenAiVisionModel(openAiOptions);
  const modelNames = { ...options.config.models };
  if (mode === 'off') return { language, vision, description: language.provider, modelNames };
  const secrets = options.secrets ?? (options.config.apiKey === undefined ? [] : [options.config.apiKey]);
  const recorder = new CassetteRecorder({ path, ...(options.redactor ? { redactor: options.redactor } : { secrets }) });
  return {
    language: new RecordingLanguageModel(language, recorder),
    vision: new RecordingVisionModel(vision, recorder),
    description: `${language.provider}, recording to ${path}`,
    modelNames,
  };
}
