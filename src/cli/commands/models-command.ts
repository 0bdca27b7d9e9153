import { Option, type Command } from 'commander';
import { PNG } from 'pngjs';
import { isModelInfrastructureError } from '../../model/is-model-infrastructure-error.js';
import { isModelReplyFailure } from '../../model/is-model-reply-failure.js';
import { ModelCallError } from '../../model/model-call-error.js';
import { modelConfigFromEnv, modelTimeoutProblem, type ModelConfig } from '../../model/model-config-from-env.js';
import { modelRoles, type ModelRole } from '../../model/model-role.js';
import { OpenAiLanguageModel } from '../../model/openai-language-model.js';
import { OpenAiVisionModel } from '../../model/openai-vision-model.js';
import { exitCodes, type CliIo } from '../cli-io.js';
import type { CommandRegistration } from '../command-registration.js';

interface ModelsOptions {
  baseUrl?: string;
  apiKey?: string;
  check?: boolean;
  json?: boolean;
  timeout: string;
}

/** The result of probing one model with `--check`. */
interface ModelCheck {
  readonly model: string;
  readonly roles: readonly ModelRole[];
  readonly vision: boolean;
  readonly ok: boolean;
  readonly latencyMs?: number;
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly reply?: string;
  readonly error?: string;
}

/**
 * `senseact models [--check] [--json] [--base-url <url>] [--api-key <key>]`: shows the
 * model configuration resolved from options and the environment (endpoint, whether a key
 * is set and from where — never the key — and each role's model with its source).
 * `--check` sends one tiny request to each distinct model (the vision model with a small
 * image). Exit 2 when the configuration is incomplete, 1 when a check fails.
 */
export const modelsCommand: CommandRegistration = (program: Command, io: CliIo, setExitCode) => {
  program
    .command('models')
    .description('Show the model configuration per role (from options and SENSEACT_* / OPENAI_* variables); --check calls each model once.')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (else SENSEACT_BASE_URL, OPENAI_BASE_URL, OpenAI)')
    .option('--api-key <key>', 'API key (else SENSEACT_API_KEY, OPENAI_API_KEY; none needed for 127.0.0.1)')
    .option('--check', 'send one tiny request to each configured model')
    .option('--json', 'print JSON')
    .addOption(new Option('--timeout <ms>', 'timeout per check request in milliseconds').default('30000'))
    .action(async (options: ModelsOptions) => {
      const config = modelConfigFromEnv(io.env, {
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      });
      const timeoutMs = Number(options.timeout);
      const timeoutProblem = modelTimeoutProblem(timeoutMs, JSON.stringify(options.timeout));
      if (timeoutProblem !== undefined) {
        io.stderr(`senseact models: --timeout ${timeoutProblem}.\n`);
        setExitCode(exitCodes.badInput);
        return;
      }
      const checks = options.check === true && config.ready ? await checkModels(config, timeoutMs) : undefined;
      if (options.json === true) io.stdout(`${JSON.stringify(describeConfig(config, checks), null, 2)}\n`);
      else io.stdout(renderConfig(config, checks));
      if (!config.ready) {
        for (const problem of config.problems) io.stderr(`senseact models: ${problem}\n`);
        setExitCode(exitCodes.badInput);
      } else if (checks?.some((check) => !check.ok) === true) {
        setExitCode(exitCodes.failure);
      }
    });
};

function keyDescription(config: ModelConfig): string {
  if (config.apiKey !== undefined) return `set (${config.apiKeySource ?? 'option'})`;
  return config.apiKeyRequired ? 'MISSING' : 'not needed (loopback endpoint)';
}

function describeConfig(config: ModelConfig, checks: readonly ModelCheck[] | undefined) {
  return {
    baseUrl: config.baseUrl,
    baseUrlSource: config.baseUrlSource,
    apiKey: keyDescription(config),
    ready: config.ready,
    problems: config.problems,
    roles: config.roles,
    structured: config.structured,
    structuredSource: config.structuredSource,
    generation: config.generation ?? {},
    ...(checks === undefined ? {} : { checks }),
  };
}

function renderConfig(config: ModelConfig, checks: readonly ModelCheck[] | undefined): string {
  const lines = [
    `endpoint  ${config.baseUrl}  (${config.baseUrlSource})`,
    `api key   ${keyDescription(config)}`,
    `replies   structured output ${config.structured ?? 'none'}  (${config.structuredSource})`,
    '',
  ];
  const width = Math.max(...modelRoles.map((role) => config.roles[role].model.length));
  for (const role of modelRoles) {
    const entry = config.roles[role];
    const settings = Object.entries(config.generation?.[role] ?? {}).map(([name, value]) => `${name}=${String(value)}`);
    lines.push(`${role.padEnd(10)}${entry.model.padEnd(width + 2)}${entry.source}${settings.length > 0 ? `  ${settings.join(' ')}` : ''}`);
  }
  if (checks !== undefined) {
    lines.push('');
    for (const check of checks) {
      const what = `${check.model} (${check.roles.join(', ')}${check.vision ? ', with an image' : ''})`;
      lines.push(
        check.ok
          ? `ok    ${what}: ${Math.round(check.latencyMs ?? 0)} ms, ${check.promptTokens ?? 0}+${check.completionTokens ?? 0} tokens, replied ${JSON.stringify(check.reply ?? '')}`
          : `FAIL  ${what}: ${check.error ?? 'unknown error'}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Reply tokens a check allows: a reasoning model thinks before it answers (hundreds of
 * tokens); 5 failed such models that then passed a bench.
 */
export const checkMaxTokens = 1024;

/**
 * One request per distinct text model, and one with an image to the vision model. A 429
 * or a server error is retried once (a Retry-After up to 10 s honoured): one busy moment
 * fails no working endpoint.
 */
async function checkModels(config: ModelConfig, timeoutMs: number): Promise<ModelCheck[]> {
  const retry = { maxAttempts: 2, maxRateLimitRetries: 1, maxRetryAfterMs: 10_000, budgetMs: timeoutMs + 10_000 };
  const language = new OpenAiLanguageModel({ config, timeoutMs, retry });
  const vision = new OpenAiVisionModel({ config, timeoutMs, retry });
  const textModels = new Map<string, ModelRole[]>();
  for (const role of modelRoles) {
    if (role === 'vision') continue;
    const model = config.roles[role].model;
    textModels.set(model, [...(textModels.get(model) ?? []), role]);
  }
  const checks: ModelCheck[] = [];
  for (const [model, roles] of textModels) {
    checks.push(await probe(model, roles, false, textAnswer, () => language.generate({ role: roles[0] ?? 'planner', messages: [{ role: 'user', content: 'Reply with the single word OK.' }], maxTokens: checkMaxTokens })));
  }
  const visionModel = config.roles.vision.model;
  checks.push(
    await probe(visionModel, ['vision'], true, visionAnswer, () =>
      vision.generate({ role: 'vision', messages: [{ role: 'user', content: 'What colour is this image? One word.', images: [{ png: redSquare(), detail: 'low' }] }], maxTokens: checkMaxTokens }),
    ),
  );
  return checks;
}

/** What a working model answers to the probes: the word OK, and the colour of the red square. */
const textAnswer = { pattern: /\bok\b/i, description: 'the word OK' };
const visionAnswer = { pattern: /\b(red|crimson|scarlet)\b/i, description: 'red (the colour of the image sent)' };

/**
 * One probe: a call that must return, and whose reply must say what was asked — an
 * endpoint that answers something else (a wrong model behind the name, a vision model
 * that never saw the image, a reasoning model whose few tokens went to thinking) fails.
 */
async function probe(model: string, roles: readonly ModelRole[], isVision: boolean, expected: { readonly pattern: RegExp; readonly description: string }, call: () => Promise<{ text: string; latencyMs: number; usage: { promptTokens: number; completionTokens: number }; finishReason?: string }>): Promise<ModelCheck> {
  try {
    const reply = await call();
    // What a reasoning model thought is not its answer: the word must come after it.
    const text = reply.text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
    const measured = { latencyMs: reply.latencyMs, promptTokens: reply.usage.promptTokens, completionTokens: reply.usage.completionTokens, reply: text.slice(0, 40) };
    if (!expected.pattern.test(text)) {
      const cause = reply.finishReason === 'length'
        ? `the reply was cut off at the check's ${checkMaxTokens} reply tokens (finish_reason length): a reasoning model thinks first; the bench gives each role its own max tokens (SENSEACT_<ROLE>_MAX_TOKENS), set high enough for its thinking`
        : `check that the model name is right${isVision ? ' and that it accepts images' : ''}`;
      return { model, roles, vision: isVision, ok: false, ...measured, error: `replied ${JSON.stringify(text.slice(0, 80))}, expected ${expected.description}; ${cause}` };
    }
    return { model, roles, vision: isVision, ok: true, ...measured };
  } catch (error) {
    if (!isModelInfrastructureError(error) && !isModelReplyFailure(error)) throw error;
    return { model, roles, vision: isVision, ok: false, error: checkFailure(error) };
  }
}

/** Why a check call failed, named for the check: its reply tokens are the check's, not the role's. */
function checkFailure(error: unknown): string {
  if (ModelCallError.isInstance(error) && error.failure === 'empty-reply' && /only reasoning_content/.test(error.detail)) {
    return `${error.model} reasoned (reasoning_content) and gave no answer: ${error.detail}. ${/finish_reason length/.test(error.detail) ? `It spent the check's ${checkMaxTokens} reply tokens on reasoning: the bench gives each role its own max tokens (SENSEACT_<ROLE>_MAX_TOKENS or SENSEACT_MAX_TOKENS), set high enough for its reasoning, or lower its reasoning effort.` : 'Check that the model answers in its message content.'}`;
  }
  return (error as Error).message;
}

/** A 16×16 red PNG: enough for a vision model to answer, small enough to cost nothing. */
function redSquare(): Uint8Array {
  const png = new PNG({ width: 16, height: 16 });
  for (let index = 0; index < png.data.length; index += 4) {
    png.data[index] = 220;
    png.data[index + 1] = 30;
    png.data[index + 2] = 30;
    png.data[index + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(png));
}
