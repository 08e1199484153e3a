/**
 * hooks-json: a pure library for owning entries in Cursor's hooks.json provably. Bytes and a
 * trusted receipt in, desired bytes and a new receipt out; no I/O. See docs/hooks-json.md.
 */
export {
  planOwnedEntries,
  removeOwnedEntries,
  repairOwnedEntries,
  verifyOwned,
  type PlanRequest,
  type PlanResult,
  type PlanActions,
  type RemoveRequest,
  type RemoveResult,
  type RepairRequest,
  type VerifyRequest,
  type VerifyResult,
} from "./ownership.js";
export {
  parseReceipt,
  type OwnedEntrySpec,
  type OwnershipReceipt,
  type ReceiptEntry,
} from "./receipt.js";
export {
  parseHooksDocument,
  type HooksDocument,
  type HooksWarning,
  type ParseHooksOptions,
} from "./document.js";
export {
  parseJsonBytes,
  parseJsonText,
  decodeUtf8,
  type JsonDocument,
  type JsonValue,
  type ParseMode,
} from "./parse.js";
export { canonicalJson, entryDigest } from "./canonical.js";
export {
  renderCommand,
  isCanonicalPath,
  ARGV_LIMITS,
  type ShellGrammar,
  type CommandScope,
  type RenderOptions,
} from "./command.js";
export { CURSOR_HOOK_EVENTS, isKnownHookEvent, type KnownHookEvent } from "./events.js";
export { LIMITS } from "./limits.js";
export type { FieldValue } from "./layout.js";
export {
  HooksJsonError,
  ParseError,
  LimitError,
  ConflictError,
  AbsenceUnprovenError,
  UnsupportedError,
  InvalidRequestError,
  type HooksJsonErrorKind,
  type HooksJsonErrorCode,
} from "./errors.js";
