/**
 * The model a subagent runs on: `subagent_model` when Cursor sends a usable one, else the last
 * model recorded for the conversation in `.aic/session-models.jsonl` (seed §7.10).
 */
import { readJsonl } from "../../shared/jsonl.js";
import { projectFile, SESSION_MODELS_LOG } from "../../shared/project-logs.js";

/** 1–256 printable ASCII characters. */
export function validModelId(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  return t.length >= 1 && t.length <= 256 && /^[\x20-\x7e]+$/.test(t) ? t : undefined;
}

export function cachedModelFor(
  projectRoot: string,
  conversationId: string | undefined,
): string | undefined {
  const records = readJsonl<{ conversationId?: string; model?: string }>(
    projectFile(projectRoot, SESSION_MODELS_LOG),
  );
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (conversationId && r.conversationId !== conversationId) continue;
    const m = validModelId(r.model);
    if (m) return m;
  }
  return undefined;
}

export function resolveSubagentModel(
  projectRoot: string,
  subagentModel: unknown,
  conversationId: string | undefined,
): { model?: string; fromPayload: boolean } {
  const direct = validModelId(subagentModel);
  if (direct) return { model: direct, fromPayload: true };
  return { model: cachedModelFor(projectRoot, conversationId), fromPayload: false };
}
