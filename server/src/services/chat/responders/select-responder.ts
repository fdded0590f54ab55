import type { TConfig } from '@contracts/config/server-config.js';
import { groundedResponder } from './grounded-responder.js';
import { openAiResponder } from './openai-responder.js';
import type { Responder } from './responder.js';

/**
 * CHAT_RESPONDER picks the implementation; unset means the OpenAI-compatible one when
 * LLM_BASE_URL is configured, else the built-in grounded responder.
 */
export function selectResponder(config: TConfig): Responder {
  const wanted = config.CHAT_RESPONDER ?? (config.LLM_BASE_URL ? 'openai' : 'grounded');
  if (wanted === 'openai') {
    if (!config.LLM_BASE_URL || !config.LLM_MODEL)
      throw new Error('CHAT_RESPONDER=openai needs LLM_BASE_URL and LLM_MODEL');
    return openAiResponder({ baseUrl: config.LLM_BASE_URL, model: config.LLM_MODEL, apiKey: config.LLM_API_KEY });
  }
  return groundedResponder;
}
