import { ScriptedLanguageModel, ScriptedVisionModel } from '../model/scripted-language-model.js';
import type { UiTree } from '../ui/ui-tree.js';
import type { AgentModels } from './agent-session.js';
import type { OracleGuide } from './oracle-guide.js';

/** The model name every oracle reply reports, so traces and results say what answered. */
export const oracleModelName = 'oracle-reference-solution';

/**
 * The `oracle` policy as models: scripted models whose replies the {@link OracleGuide}
 * computes from the task's reference solution and the screen the loop observed. The loop
 * builds its real prompts (and screenshots) and sends them through these exactly as it
 * would to a language model, so calls, images and bytes are counted the same way; token
 * counts are local estimates. Results are oracle results and labelled so.
 */
export function createOracleModels(guide: OracleGuide, options: { readonly react: boolean; readonly groundTruth?: () => UiTree | undefined }): Required<AgentModels> {
  const planner = new ScriptedLanguageModel({
    model: oracleModelName,
    replies: (request) => {
      if (request.role === 'verifier') return JSON.stringify(guide.verify());
      return JSON.stringify(options.react ? guide.react(false, undefined) : guide.plan().reply);
    },
  });
  const vision = new ScriptedVisionModel({
    model: oracleModelName,
    replies: (request) => {
      const truth = options.groundTruth?.();
      if (request.role === 'vision') return JSON.stringify(guide.locateCurrent(truth));
      return JSON.stringify(guide.react(true, truth));
    },
  });
  return { planner, verifier: planner, vision };
}
