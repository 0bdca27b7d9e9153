import type { LanguageModel, LanguageModelRequest, ModelReply, ModelRequest, TextMessage } from './language-model.js';
import { buildModelCallRecord, type ModelCallRecord } from './model-call-record.js';
import { ModelReplyShapeError, modelReplyShapeProblems } from './model-reply-shape-error.js';
import type { ModelRole } from './model-role.js';
import type { ReplyRead } from './reply-repair.js';
import type { UsageLedger } from './usage-ledger.js';
import type { VisionMessage, VisionModel, VisionModelRequest } from './vision-model.js';

export interface MeteredModelOptions {
  /** Receives every call, successful or not. */
  readonly ledger: UsageLedger;
  /** Called after every call with its full record (e.g. to write `model-calls/<k>.json`). */
  readonly onCall?: (record: ModelCallRecord) => void;
  /** Runs before every call and may refuse it by throwing (a spent budget): nothing is sent or entered then. */
  readonly beforeCall?: () => void;
  /** Called after the ledger counted how a structured reply was read (e.g. to trace its repairs). */
  readonly onReplyRead?: (role: ModelRole, read: ReplyRead) => void;
}

function meteredReplyRead(options: MeteredModelOptions, role: ModelRole, read: ReplyRead): void {
  options.ledger.recordReplyRead(role, read);
  options.onReplyRead?.(role, read);
}

async function meteredGenerate<Message extends TextMessage | VisionMessage>(
  inner: { readonly provider: string; modelName(role: ModelRole): string; generate(request: ModelRequest<Message>): Promise<ModelReply> },
  options: MeteredModelOptions,
  request: ModelRequest<Message>,
): Promise<ModelReply> {
  options.beforeCall?.();
  const requestedModel = request.model ?? inner.modelName(request.role);
  const started = performance.now();
  let reply: ModelReply;
  try {
    reply = await inner.generate(request);
    // The boundary of a model implementation (ours or a user's): numbers that are not counts stop here, named.
    const problems = modelReplyShapeProblems(reply);
    if (problems.length > 0) throw new ModelReplyShapeError({ provider: inner.provider, role: request.role, problems });
  } catch (error) {
    const failed = buildModelCallRecord(request, requestedModel, { error, latencyMs: performance.now() - started });
    options.ledger.recordCall(failed);
    options.onCall?.(failed);
    throw error;
  }
  // Outside the try: a failing observer must not enter the call twice.
  const record = buildModelCallRecord(request, requestedModel, { reply });
  options.ledger.recordCall(record);
  options.onCall?.(record);
  return reply;
}

/**
 * Wraps a {@link LanguageModel} so that every call (including failed ones) is entered in
 * a {@link UsageLedger} and reported to `onCall`. The reply is passed through unchanged.
 */
export class MeteredLanguageModel implements LanguageModel {
  readonly provider: string;
  private readonly inner: LanguageModel;
  private readonly options: MeteredModelOptions;

  constructor(inner: LanguageModel, options: MeteredModelOptions) {
    this.inner = inner;
    this.options = options;
    this.provider = inner.provider;
  }

  modelName(role: ModelRole): string {
    return this.inner.modelName(role);
  }

  generate(request: LanguageModelRequest): Promise<ModelReply> {
    return meteredGenerate(this.inner, this.options, request);
  }

  /** Counts how a structured reply was read in the ledger (see `StructuredCapableModel.recordReplyRead`). */
  recordReplyRead(role: ModelRole, read: ReplyRead): void {
    meteredReplyRead(this.options, role, read);
  }
}

/** The {@link VisionModel} counterpart of {@link MeteredLanguageModel}; images and their bytes are counted. */
export class MeteredVisionModel implements VisionModel {
  readonly provider: string;
  private readonly inner: VisionModel;
  private readonly options: MeteredModelOptions;

  constructor(inner: VisionModel, options: MeteredModelOptions) {
    this.inner = inner;
    this.options = options;
    this.provider = inner.provider;
  }

  modelName(role: ModelRole): string {
    return this.inner.modelName(role);
  }

  generate(request: VisionModelRequest): Promise<ModelReply> {
    return meteredGenerate(this.inner, this.options, request);
  }

  /** Counts how a structured reply was read in the ledger (see `StructuredCapableModel.recordReplyRead`). */
  recordReplyRead(role: ModelRole, read: ReplyRead): void {
    meteredReplyRead(this.options, role, read);
  }
}
