// A standalone OpenAI-compatible mock endpoint on 127.0.0.1, for trying the CLI and the
// agent offline:
//   npx tsx scripts/mock-openai-server.ts [--port 8089] [--replies replies.json|replies.jsonl | --model label-match] [--personality chatty]
// Without --replies it answers every call with `{"echo": "<last user text>"}`. With a JSON
// array (or JSONL, one reply per line) it answers in order; each reply is a string or a
// MockReply object ({ text, usage?, delayMs? } or { status, body }); once the script is
// used up it answers HTTP 500 saying so. With --personality (strict, chatty, fenced,
// explained, thinking, sloppy, paper-format, broken, refused) every reply that is a JSON object is written the
// way such a model writes it (src/model/mock-model-personality.ts). Point the toolkit at the printed URL with
// SENSEACT_BASE_URL. With --model label-match the answers come from a stand-in model that
// reads the view in each prompt and picks the unit whose label best matches the task
// (src/model/mock-label-model.ts). Transport habits: --stall-ms <ms> holds every reply that
// long (a dead endpoint that accepts and never answers: --stall-ms 3600000);
// --rate-limit-ms <ms> answers 429 with Retry-After (seconds left) until that long after
// the first request; --stream-only answers every reply as server-sent events, asked or not
// (a stream-only server); --prefix-cache reports, as a provider's prompt cache does
// (`prompt_tokens_details.cached_tokens`), the tokens at the start of each request that an
// earlier request began with, so the bench table shows cached tokens. Stops on Ctrl-C.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { labelMatchAnswer } from '../src/model/mock-label-model.js';
import { mockPersonalitySchema, personalityReply, type MockPersonality } from '../src/model/mock-model-personality.js';
import { startMockOpenAiServer, type MockChatRequest, type MockReply } from '../src/model/mock-openai-server.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, replies: { type: 'string' }, personality: { type: 'string' }, model: { type: 'string' }, 'stall-ms': { type: 'string' }, 'rate-limit-ms': { type: 'string' }, 'stream-only': { type: 'boolean' }, 'prefix-cache': { type: 'boolean' } } });
const stallMs = Number(values['stall-ms'] ?? '0');
const rateLimitMs = Number(values['rate-limit-ms'] ?? '0');
if (!Number.isFinite(stallMs) || stallMs < 0 || !Number.isFinite(rateLimitMs) || rateLimitMs < 0) {
  console.error('--stall-ms and --rate-limit-ms take milliseconds ≥ 0');
  process.exit(2);
}
let firstRequestAt: number | undefined;
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be an integer 0..65535, got ${JSON.stringify(values.port)}`);
  process.exit(2);
}

let personality: MockPersonality | undefined;
if (values.personality !== undefined) {
  const parsed = mockPersonalitySchema.safeParse(values.personality);
  if (!parsed.success) {
    console.error(`--personality must be one of ${mockPersonalitySchema.options.join(', ')}, got ${JSON.stringify(values.personality)}`);
    process.exit(2);
  }
  personality = parsed.data;
}

/** `reply` as the chosen personality writes it, when it is a JSON object's text. */
function styled(reply: MockReply, request: MockChatRequest): MockReply {
  if (personality === undefined) return reply;
  const text = typeof reply === 'string' ? reply : 'text' in reply ? reply.text : undefined;
  if (text === undefined) return reply;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return reply;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reply;
  const written = personalityReply(personality, value as Record<string, unknown>, request);
  return typeof reply === 'string' ? written : { ...reply, text: written };
}

if (values.model !== undefined && values.model !== 'label-match') {
  console.error(`--model must be label-match, got ${JSON.stringify(values.model)}`);
  process.exit(2);
}
if (values.model !== undefined && values.replies !== undefined) {
  console.error('give --replies or --model, not both');
  process.exit(2);
}

let script: MockReply[] | undefined;
if (values.replies !== undefined) {
  const text = readFileSync(values.replies, 'utf8');
  try {
    const trimmed = text.trim();
    script = trimmed.startsWith('[') ? (JSON.parse(trimmed) as MockReply[]) : trimmed.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as MockReply);
  } catch (error) {
    console.error(`--replies ${values.replies}: not a JSON array or JSONL of replies (${String(error)})`);
    process.exit(2);
  }
}

/** A rate-limit window or a stall before the reply, when asked for. */
function transport(reply: MockReply): MockReply {
  firstRequestAt ??= Date.now();
  const left = firstRequestAt + rateLimitMs - Date.now();
  if (left > 0) return { status: 429, body: { error: { message: 'Rate limit reached for requests', type: 'requests' } }, headers: { 'retry-after': String(Math.ceil(left / 1000)) } };
  if (typeof reply !== 'string' && 'status' in reply) return reply;
  const streamed = values['stream-only'] === true ? (typeof reply === 'string' ? { text: reply, stream: true } : { ...reply, stream: true }) : reply;
  if (stallMs === 0) return streamed;
  return typeof streamed === 'string' ? { text: streamed, delayMs: stallMs } : { ...streamed, delayMs: stallMs };
}

const server = await startMockOpenAiServer({
  port,
  prefixCache: values['prefix-cache'] === true,
  reply: (request) => transport(answer(request)),
});

/** The reply before the transport habits: the label-match model's, the script's, or the echo. */
function answer(request: MockChatRequest): MockReply {
  if (values.model === 'label-match') return styled(JSON.stringify(labelMatchAnswer(request)), request);
  if (script === undefined) return styled(JSON.stringify({ echo: request.texts.at(-1) ?? '' }), request);
  const next = script[request.index];
  if (next !== undefined) return styled(next, request);
  return { status: 500, body: { error: { message: `mock script used up: ${script.length} replies, this is call ${request.index + 1}`, type: 'server_error' } } };
}
console.log(`mock OpenAI-compatible server at ${server.url} (${values.model === 'label-match' ? 'the label-match model' : script === undefined ? 'echo mode' : `${script.length} scripted replies`}${personality === undefined ? '' : `, personality ${personality}`}${values['prefix-cache'] === true ? ', prefix cache' : ''})`);
console.log(`  SENSEACT_BASE_URL=${server.url}`);

const stop = (): void => {
  void server.close().then(() => {
    console.log(`served ${server.requests.length} request(s)`);
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
