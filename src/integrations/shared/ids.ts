/**
 * Conversation and generation ids. Cursor does not send the conversation id to every event, so
 * each hook resolves it from the same ordered list of sources (seed §4.3, §7.4, §9.1).
 */
import { basename } from "node:path";
import { firstStr, str, type Payload } from "./payload.js";
import { sha256Hex } from "./sha256.js";

/** Ids are opaque, but a usable one is printable and of sane length. */
export function validId(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined || s.length > 256) return undefined;
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(s) ? undefined : s;
}

/** `.../agent-transcripts/<id>.jsonl` → `<id>`. */
export function idFromTranscriptPath(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  const base = basename(s.replace(/\\/g, "/"));
  return validId(base.replace(/\.jsonl?$/i, ""));
}

/**
 * Order: the payload's own conversation id (snake, then camel case), the transcript file name,
 * AIC_CONVERSATION_ID (set by AIC-compile-context through sessionStart `env`), then the session
 * id. A generation id is never promoted to a conversation id: it changes every turn.
 */
export function resolveConversationId(
  p: Payload,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return (
    validId(p.conversation_id) ??
    validId(p.conversationId) ??
    idFromTranscriptPath(p.transcript_path) ??
    validId(env.AIC_CONVERSATION_ID) ??
    validId(p.session_id) ??
    validId(p.sessionId) ??
    validId(p.parent_conversation_id)
  );
}

export function resolveGenerationId(p: Payload): string | undefined {
  return validId(firstStr(p, "generation_id", "generationId"));
}

/** A file-name-safe key for an id: the id itself when safe, else a readable prefix + hash. */
export function safeKey(id: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/.test(id)) return id;
  const hash = sha256Hex(id).slice(0, 12);
  const readable = id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 40);
  return `${readable}-${hash}`.replace(/^[._-]+/, "k");
}
