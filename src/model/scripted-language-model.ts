import type { LanguageModel, LanguageModelRequest, ModelReply, ModelRequest, ModelUsage, TextMessage } from './language-model.js';
import type { ModelRole } from './model-role.js';
import { ScriptedModelExhaustedError } from './scripted-model-exhausted-error.js';
import { estimatePromptTokens, estimateTokens } from './estimate-tokens.js';
import type { VisionMessage, VisionModel, VisionModelRequest } from './vision-model.js';

/** One scripted reply: plain text, or text with its usage/model, or an error the call throws. */
export type ScriptedReply =
  | string
  | { readonly text: string; readonly usage?: ModelUsage; readonly model?: string; readonly latencyMs?: number; readonly finishReason?: string }
  | { readonly error: Error };

/** Replies in call order, or a function of the request and the zero-based call index. */
export type ScriptedReplies<Request> = readonly ScriptedReply[] | ((request: Request, callIndex: number) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedModelOptions<Request> {
  readonly replies: ScriptedReplies<Request>;
  /** The model name every reply reports unless the reply sets one. Default `scripted`. */
  readonly model?: string;
}

/** One call a scripted model received, for tests to assert on. */
export interface ScriptedCall<Request> {
  readonly index: number;
  readonly request: Request;
}

/** Shared engine of the scripted doubles: replays the script, records every call. */
class ScriptedEngine<Message extends TextMessage | VisionMessage> {
  readonly calls: ScriptedCall<ModelRequest<Message>>[] = [];
  private readonly options: ScriptedModelOptions<ModelRequest<Message>>;

  constructor(options: ScriptedModelOptions<ModelRequest<Message>>) {
    this.options = options;
  }

  modelName(_role: ModelRole): string {
    return this.options.model ?? 'scripted';
  }

  async generate(request: ModelRequest<Message>): Promise<ModelReply> {
    if (request.signal?.aborted === true) throw request.signal.reason;
    const index = this.calls.length;
    this.calls.push({ index, request });
    const replies = this.options.replies;
    let scripted: ScriptedReply | undefined;
    if (typeof replies === 'function') {
      scripted = await replies(request, index);
    } else {
      scripted = replies[index];
      if (scripted === undefined) {
        const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
        throw new ScriptedModelExhaustedError({ callIndex: index, replies: replies.length, role: request.role, lastUserText: lastUser?.content ?? '' });
      }
    }
    if (typeof scripted !== 'string' && 'error' in scripted) throw scripted.error;
    const text = typeof scripted === 'string' ? scripted : scripted.text;
    const usage: ModelUsage =
      typeof scripted === 'string' || scripted.usage === undefined
        ? { promptTokens: estimatePromptTokens(request.messages), completionTokens: estimateTokens(text), estimated: true }
        : scripted.usage;
    const model = typeof scripted === 'string' ? (request.model ?? this.modelName(request.role)) : (scripted.model ?? request.model ?? this.modelName(request.role));
    return {
      text,
      usage,
      latencyMs: typeof scripted === 'string' ? 0 : (scripted.latencyMs ?? 0),
      model,
      finishReason: typeof scripted === 'string' ? 'stop' : (scripted.finishReason ?? 'stop'),
    };
  }
}

/**
 * A test double for {@link LanguageModel}: answers from a script (in order, or computed
 * from the request) and records every call in `calls`. Calling it more often than the
 * script allows throws {@link ScriptedModelExhaustedError}. Usage is estimated locally
 * (and marked `estimated`) unless the script gives it; latency is 0 unless the script
 * gives it.
 */
export class ScriptedLanguageModel implements LanguageModel {
  readonly provider = 'scripted';
  private readonly engine: ScriptedEngine<TextMessage>;

  constructor(options: ScriptedModelOptions<LanguageModelRequest>) {
    this.engine = new ScriptedEngine(options);
  }

  /** Every call so far, in order. */
  get calls(): readonly ScriptedCall<LanguageModelRequest>[] {
    return this.engine.calls;
  }

  modelName(role: ModelRole): string {
    return this.engine.modelName(role);
  }

  generate(request: LanguageModelRequest): Promise<ModelReply> {
    return this.engine.generate(request);
  }
}

/** The {@link VisionModel} counterpart of {@link ScriptedLanguageModel}; recorded calls keep their images. */
export class ScriptedVisionModel implements VisionModel {
  readonly provider = 'scripted';
  private readonly engine: ScriptedEngine<VisionMessage>;

  constructor(options: ScriptedModelOptions<VisionModelRequest>) {
    this.engine = new ScriptedEngine(options);
  }

  get calls(): readonly ScriptedCall<VisionModelRequest>[] {
    return this.engine.calls;
  }

  modelName(role: ModelRole): string {
    return this.engine.modelName(role);
  }

  generate(request: VisionModelRequest): Promise<ModelReply> {
    return this.engine.generate(request);
  }
}
