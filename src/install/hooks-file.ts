/**
 * AIC's entries in Cursor's hooks.json, entirely through the hooks-json ownership library (this
 * module never edits the JSON itself). It renders the manifest's registrations into specs for
 * the install scope, picks the receipt that proves the current file (the committed one, or the
 * one journaled by an install that was killed midway), and turns library errors into refusals
 * that say what to do.
 */
import {
  HooksJsonError,
  parseHooksDocument,
  parseReceipt,
  planOwnedEntries,
  removeOwnedEntries,
  repairOwnedEntries,
  verifyOwned,
  type OwnedEntrySpec,
  type OwnershipReceipt,
  type ShellGrammar,
} from "../hooks-json/index.js";
import type { HookRegistration } from "../integrations/cursor/manifest.js";
import type { Finding } from "./doctor.js";
import { readBytes } from "./files.js";
import { Plan } from "./plan.js";
import type { InstallState } from "./state.js";
import { recordKey, type InstallTargets } from "./targets.js";
import { join } from "node:path";

/** Project commands are plain `node .cursor/hooks/X.cjs` (valid in every shell); user-scope ones
 * are absolute and quoted for the platform's shell. */
function grammarFor(targets: InstallTargets): ShellGrammar {
  return targets.scope === "user" && process.platform === "win32" ? "powershell" : "posix";
}

function desiredSpecs(
  targets: InstallTargets,
  registrations: readonly HookRegistration[],
): OwnedEntrySpec[] {
  return registrations.map((r) => ({
    event: r.event,
    argv: [
      "node",
      targets.scope === "user" ? join(targets.hooksDir, r.script) : `.cursor/hooks/${r.script}`,
    ],
    fields: r.fields ?? {},
  }));
}

const EMPTY = new Uint8Array();

/** Candidate receipts, most recent first: an interrupted install's pending one, then the committed one. */
function receiptsOf(state: InstallState | undefined): OwnershipReceipt[] {
  const out: OwnershipReceipt[] = [];
  for (const raw of [state?.pendingHooksReceipts, state?.hooksReceipts]) {
    if (raw === undefined) continue;
    try {
      out.push(parseReceipt(raw));
    } catch {
      // A malformed receipt proves nothing; the others (or a fresh install) decide.
    }
  }
  return out;
}

type ReceiptChoice = { receipt: OwnershipReceipt | null } | { error: HooksJsonError };

/**
 * The receipt that proves the current bytes. When none does and none of AIC's commands is left
 * in the file at all, the file is treated as never installed (receipt null): nothing stale can
 * remain, and a fresh install still refuses foreign look-alikes.
 */
function chooseReceipt(bytes: Uint8Array, state: InstallState | undefined): ReceiptChoice {
  const candidates = receiptsOf(state);
  let firstError: HooksJsonError | undefined;
  for (const receipt of candidates) {
    try {
      verifyOwned({ bytes, receipt });
      return { receipt };
    } catch (err) {
      if (!(err instanceof HooksJsonError)) throw err;
      firstError ??= err;
    }
  }
  if (!firstError) return { receipt: null };
  if (
    firstError.kind === "parse" ||
    firstError.kind === "limit" ||
    firstError.kind === "unsupported"
  ) {
    return { error: firstError };
  }
  const receipt = candidates[0]!;
  try {
    planOwnedEntries({
      bytes,
      desired: receipt.entries.map((e) => ({ event: e.event, ...e.spec })),
      grammar: receipt.grammar,
      scope: receipt.scope,
    });
    return { receipt: null };
  } catch {
    return { error: firstError };
  }
}

function fixFor(err: HooksJsonError): string {
  switch (err.kind) {
    case "parse":
    case "limit":
    case "unsupported":
      return "fix the file by hand, then run the command again";
    case "conflict":
    case "absence-unproven":
      if (err.code === "foreign-command-collision") {
        return "remove or change that entry, then run the command again";
      }
      if (err.code === "owned-entry-missing") {
        return "run `aic install cursor`: it puts deleted AIC entries back when nothing else in the file changed";
      }
      return (
        "put AIC's entries back as they were, or delete the remaining AIC entries (commands that " +
        "run .cursor/hooks/AIC-*.cjs) by hand, then run the command again"
      );
    default:
      return "report this as a bug in AIC";
  }
}

function describeHooksError(key: string, err: HooksJsonError): string {
  return `${key}: ${err.message} (${fixFor(err)})`;
}

export function planHooksInstall(
  plan: Plan,
  targets: InstallTargets,
  state: InstallState,
  registrations: readonly HookRegistration[],
): { receipts?: OwnershipReceipt } {
  const path = targets.hooksJson;
  const key = recordKey(targets.root, path);
  const before = readBytes(path);
  const bytes = before ?? EMPTY;
  try {
    const { source, receipt, restored } = provenStart(bytes, state);
    const result = planOwnedEntries({
      bytes: source,
      receipt,
      desired: desiredSpecs(targets, registrations),
      grammar: grammarFor(targets),
      scope: targets.scope,
    });
    for (const w of result.warnings) plan.kept.push(`${key} line ${w.line}: ${w.message}`);
    const after = result.bytes.length === 0 ? null : Buffer.from(result.bytes);
    const { added, updated, removed } = result.actions;
    const repairNote = restored > 0 ? `, ${restored} deleted ones restored` : "";
    plan.own(
      { key, path, role: "hooks", before, after },
      `${key}: ${added} entries added, ${updated} updated, ${removed} stale removed${repairNote}`,
    );
    return { receipts: result.receipt };
  } catch (err) {
    if (!(err instanceof HooksJsonError)) throw err;
    const receiptsLost = err.code === "foreign-command-collision" && receiptsOf(state).length === 0;
    plan.refusals.push(
      describeHooksError(key, err) +
        (receiptsLost
          ? `; AIC has no receipts for this project (was ${recordKey(targets.root, targets.stateDir)} ` +
            "deleted, or were the hooks committed by someone else?), so it cannot prove those " +
            "entries are its own"
          : ""),
    );
    return {};
  }
}

/**
 * The document and receipt to plan from. When some of AIC's entries were deleted and nothing
 * else in the file changed, the library's Repair proves the absence is a loss and puts them back
 * first; with other changes too it refuses (absence unproven), and so does the install.
 */
function provenStart(
  bytes: Uint8Array,
  state: InstallState,
): { source: Uint8Array; receipt: OwnershipReceipt | null; restored: number } {
  const choice = chooseReceipt(bytes, state);
  if (!("error" in choice)) return { source: bytes, receipt: choice.receipt, restored: 0 };
  if (choice.error.code !== "owned-entry-missing") throw choice.error;
  let firstError: unknown;
  for (const receipt of receiptsOf(state)) {
    try {
      const repaired = repairOwnedEntries({ bytes, receipt });
      return {
        source: repaired.bytes,
        receipt: repaired.receipt,
        restored: repaired.actions.added,
      };
    } catch (err) {
      firstError ??= err;
    }
  }
  throw firstError;
}

/** Uninstall's surgical path: AIC's entries out, everything else as it is. */
export function planHooksRemoval(
  current: Buffer,
  state: InstallState,
  targets: InstallTargets,
): { after: Buffer | null; drifted: string[] } {
  const key = recordKey(targets.root, targets.hooksJson);
  try {
    // Entries the user already deleted are first proven lost (Repair), so the rest can go too.
    const { source, receipt } = provenStart(current, state);
    if (receipt === null) return { after: current, drifted: [] };
    const result = removeOwnedEntries({ bytes: source, receipt });
    return { after: result.bytes.length === 0 ? null : Buffer.from(result.bytes), drifted: [] };
  } catch (err) {
    if (!(err instanceof HooksJsonError)) throw err;
    return { after: current, drifted: [describeHooksError(key, err)] };
  }
}

/** Doctor: the file is valid, names only known events, and AIC's entries are provably intact. */
export function inspectHooks(
  bytes: Buffer | null,
  state: InstallState | undefined,
  targets: InstallTargets,
): Finding[] {
  const key = recordKey(targets.root, targets.hooksJson);
  const installed = receiptsOf(state).length > 0;
  if (bytes === null) {
    return installed
      ? [{ severity: "fail", message: `${key} is missing`, fix: "run `aic install cursor`" }]
      : [];
  }
  const findings: Finding[] = [];
  try {
    const doc = parseHooksDocument(bytes);
    for (const w of doc.warnings) {
      findings.push({
        severity: "fail",
        message: `${key} line ${w.line}: ${w.message}`,
        fix: "rename or remove that event (Cursor's events: sessionStart, preToolUse, stop, ...)",
      });
    }
    if (doc.warnings.length === 0) {
      findings.push({ severity: "ok", message: `${key} is valid and names only known events` });
    }
  } catch (err) {
    if (!(err instanceof HooksJsonError)) throw err;
    return [{ severity: "fail", message: `${key}: ${err.message}`, fix: fixFor(err) }];
  }
  if (!installed) return findings;
  const choice = chooseReceipt(bytes, state);
  if ("error" in choice) {
    findings.push({
      severity: "fail",
      message: `${key}: ${choice.error.message}`,
      fix: fixFor(choice.error),
    });
  } else if (choice.receipt === null) {
    findings.push({
      severity: "fail",
      message: `AIC's entries are gone from ${key}`,
      fix: "run `aic install cursor`",
    });
  } else {
    findings.push({
      severity: "ok",
      message: `ownership verified: AIC's ${choice.receipt.entries.length} entries in ${key} are intact`,
    });
  }
  return findings;
}
