import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { assertNever } from '../util/assert-never.js';
import type { EndpointQuirks } from './endpoint-quirks.js';
import type { GenerationSettings } from './generation-settings.js';
import { strictJsonSchema } from './json-schema.js';
import type { ModelRequest, TextMessage } from './language-model.js';
import type { StructuredOutputMode } from './structured-output-mode.js';
import type { VisionMessage } from './vision-model.js';

/** What goes into one chat-completions body besides the messages. */
export interface ChatBodyInput {
  readonly model: string;
  readonly messages: ChatCompletionMessageParam[];
  readonly request: ModelRequest<TextMessage | VisionMessage>;
  /** The role's configured settings; the request's own values win. */
  readonly settings: GenerationSettings;
  /** The structured-output mode in force (after any downgrade the endpoint forced). */
  readonly structured: StructuredOutputMode;
  /** Send `response_format: json_object` for requests that ask `json: true` without a schema. */
  readonly jsonMode: boolean;
  readonly quirks: EndpointQuirks;
}

/**
 * The body of one chat completion: the request's sampling settings (else the role's),
 * adapted to what the endpoint accepts, and structured output as the mode allows:
 * `json_schema` sends the reply's schema in OpenAI's strict form (a schema strict mode
 * cannot express goes non-strict), `json_object` asks for any JSON object, `none` asks
 * nothing. Pure.
 */
export function chatRequestBody(input: ChatBodyInput): ChatCompletionCreateParamsNonStreaming {
  const { request, settings, quirks } = input;
  const temperature = request.temperature ?? settings.temperature;
  const topP = request.topP ?? settings.topP;
  const seed = request.seed ?? settings.seed;
  const maxTokens = request.maxTokens ?? settings.maxTokens;
  const responseFormat = responseFormatOf(input);
  return {
    model: input.model,
    messages: input.messages,
    ...(temperature === undefined || quirks.dropTemperature ? {} : { temperature }),
    ...(topP === undefined || quirks.dropTopP ? {} : { top_p: topP }),
    ...(seed === undefined || quirks.dropSeed ? {} : { seed }),
    ...(maxTokens === undefined ? {} : quirks.maxCompletionTokens ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens }),
    ...(responseFormat === undefined ? {} : { response_format: responseFormat }),
  };
}

type ResponseFormat = NonNullable<ChatCompletionCreateParamsNonStreaming['response_format']>;

function responseFormatOf(input: ChatBodyInput): ResponseFormat | undefined {
  const { request, structured } = input;
  const wanted = request.responseFormat;
  if (wanted === undefined) return request.json === true && input.jsonMode ? { type: 'json_object' } : undefined;
  switch (structured) {
    case 'none':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const strict = strictJsonSchema(wanted.schema);
      const name = wanted.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'reply';
      return { type: 'json_schema', json_schema: strict.success ? { name, schema: strict.value, strict: true } : { name, schema: wanted.schema, strict: false } };
    }
    default:
      return assertNever(structured, 'structured output mode');
  }
}
