import { z } from "zod";
import { entryDigest } from "./canonical.js";
import { type CommandScope, type ShellGrammar, renderCommand } from "./command.js";
import { InvalidRequestError } from "./errors.js";
import { CURSOR_HOOK_EVENTS, type KnownHookEvent, isKnownHookEvent } from "./events.js";
import { DEFAULT_LAYOUT, type FieldValue, renderEntry } from "./layout.js";
import { parseJsonText } from "./parse.js";

/**
 * Ownership receipts: trusted host state that proves which hooks.json entries AIC owns. One
 * receipt covers AIC's whole set of entries in one file:
 *
 * - per entry: the event, the spec (argv + extra fields) and the SHA-256 entry digest of the
 *   full entry it rendered to (every field, canonical form);
 * - per set: receipt version, shell grammar and scope the commands were rendered with, and
 *   one remainder digest over the document with every owned entry taken out.
 *
 * A receipt holds no foreign bytes. `created`/`compacted` record which containers AIC itself
 * created (or opened from `[]`/`{}`), so removing the last entry restores the bytes exactly.
 */

/** What AIC wants under one event: the command's argv and the entry's other fields, in order. */
export interface OwnedEntrySpec {
  event: KnownHookEvent;
  argv: readonly string[];
  /** Written after `command`, in this order: e.g. { timeout: 20 } or { matcher: "MCP" }. */
  fields?: Readonly<Record<string, FieldValue>>;
}

export interface ReceiptEntry {
  event: KnownHookEvent;
  spec: { argv: string[]; fields: Record<string, FieldValue> };
  /** SHA-256 hex of the canonical full entry. */
  entryDigest: string;
}

/** "document" | "version" | "hooks" | "event:<name>" */
export type CreatedMark = string;

export interface OwnershipReceipt {
  version: 1;
  grammar: ShellGrammar;
  scope: CommandScope;
  entries: ReceiptEntry[];
  /** SHA-256 hex of the canonical document minus every owned entry. */
  remainderDigest: string;
  created: CreatedMark[];
  /** Containers that were `[]`/`{}` before AIC opened them: "root" | "hooks" | "event:<name>". */
  compacted: string[];
}

const digestSchema = z.string().regex(/^[0-9a-f]{64}$/);
const receiptSchema = z.object({
  version: z.literal(1),
  grammar: z.enum(["posix", "powershell"]),
  scope: z.enum(["project", "user"]),
  entries: z.array(
    z.object({
      event: z.enum(CURSOR_HOOK_EVENTS),
      spec: z.object({
        argv: z.array(z.string()).min(1),
        fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      }),
      entryDigest: digestSchema,
    }),
  ),
  remainderDigest: digestSchema,
  created: z.array(z.string()),
  compacted: z.array(z.string()),
});

/** Validate a receipt read back from storage (e.g. JSON.parse of the host's receipt file). */
export function parseReceipt(value: unknown): OwnershipReceipt {
  const result = receiptSchema.safeParse(value);
  if (!result.success) throw new InvalidRequestError("invalid-receipt");
  return result.data;
}

/** An entry as ordered key/value pairs: command first, then the spec's fields. */
export type EntryPairs = Array<readonly [string, FieldValue]>;

/** The entry a spec renders to, for a grammar and scope. */
export function entryPairs(
  spec: Pick<OwnedEntrySpec, "argv" | "fields">,
  grammar: ShellGrammar,
  scope: CommandScope,
): EntryPairs {
  const pairs: EntryPairs = [["command", renderCommand(spec.argv, grammar, { scope })]];
  for (const [key, value] of Object.entries(spec.fields ?? {})) {
    const ok =
      key !== "command" &&
      (typeof value === "string" ||
        typeof value === "boolean" ||
        (typeof value === "number" && Number.isFinite(value)));
    if (!ok) throw new InvalidRequestError("invalid-field");
    pairs.push([key, value]);
  }
  return pairs;
}

/** Digest of the entry a spec renders to, computed through the same parser as the document. */
export function specDigest(pairs: EntryPairs): string {
  return entryDigest(parseJsonText(renderEntry(pairs, "", DEFAULT_LAYOUT), "strict").root);
}

export function checkEvent(event: string): asserts event is KnownHookEvent {
  if (!isKnownHookEvent(event)) throw new InvalidRequestError("unknown-event");
}

export function sameSpec(
  a: Pick<OwnedEntrySpec, "argv" | "fields">,
  b: Pick<OwnedEntrySpec, "argv" | "fields">,
): boolean {
  const fa = Object.entries(a.fields ?? {});
  const fb = Object.entries(b.fields ?? {});
  return (
    a.argv.length === b.argv.length &&
    a.argv.every((t, i) => t === b.argv[i]) &&
    fa.length === fb.length &&
    fa.every(([k, v], i) => fb[i]![0] === k && Object.is(fb[i]![1], v))
  );
}
