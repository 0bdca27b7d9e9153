import { z } from 'zod';

/**
 * How a structured reply is requested from an OpenAI-compatible endpoint
 * (`SENSEACT_STRUCTURED`):
 * - `json_schema`: `response_format: {type: 'json_schema', strict: true}` with the reply's
 *   schema. OpenAI enforces it; vLLM turns it into guided decoding, Ollama (≥ 0.5) into
 *   its `format` grammar, LM Studio and llama.cpp server into a grammar too.
 * - `json_object`: `response_format: {type: 'json_object'}`: valid JSON, any shape.
 * - `none`: nothing is asked; the prompt describes the format and the reader copes.
 * Whatever the mode, every reply is validated by the same zod schema.
 */
export const structuredOutputModeSchema = z.enum(['json_schema', 'json_object', 'none']);
export type StructuredOutputMode = z.infer<typeof structuredOutputModeSchema>;

/** The next weaker mode, used when an endpoint rejects one (json_schema → json_object → none). */
export function weakerStructuredMode(mode: StructuredOutputMode): StructuredOutputMode | undefined {
  if (mode === 'json_schema') return 'json_object';
  if (mode === 'json_object') return 'none';
  return undefined;
}
