/**
 * The result cache key: everything that changes the compiled output. Intent, budget, model, the
 * sorted related-file set, previous files, tool output contents (not their `type` label, which
 * changes nothing), guard allow patterns, the AIC build, and a fingerprint of the project's files
 * (path, size, mtime of every scanned file), so editing, adding or deleting any candidate file
 * invalidates the entry. Never the task class (trap 3).
 */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { scanProject } from "../compiler/scan.js";
import type { CompileRequest } from "../compiler/types.js";
import { buildId } from "../daemon/build-id.js";

/** Bump when the meaning of a cached entry changes. */
const KEY_VERSION = 1;

/**
 * This AIC build (version + build time): a new compiler may pack differently, so entries written
 * by another build are never served. src/service and dist/service both sit two levels down.
 */
export const AIC_BUILD = buildId(fileURLToPath(new URL("../..", import.meta.url)));

export function projectFingerprint(projectRoot: string): string {
  const { files } = scanProject(projectRoot);
  const hash = createHash("sha256");
  // scanProject returns files sorted by path, so the hash is stable across listings.
  for (const f of files) {
    hash.update(`${f.path}\0${f.size}\0${f.mtimeMs}\n`);
  }
  return hash.digest("hex");
}

/** Related files of all tool outputs, deduplicated and sorted (seed §2.1). */
export function sortedRelatedFiles(request: CompileRequest): string[] {
  const all = (request.toolOutputs ?? []).flatMap((t) => t.relatedFiles ?? []);
  return [...new Set(all)].sort();
}

export function compileCacheKey(
  request: CompileRequest,
  fingerprint: string,
  build: string = AIC_BUILD,
): string {
  const preimage = [
    `v${KEY_VERSION}`,
    build,
    request.projectRoot,
    request.intent,
    String(request.budget ?? ""),
    request.model ?? "",
    sortedRelatedFiles(request).join("\0"),
    [...new Set(request.previousFiles ?? [])].sort().join("\0"),
    (request.toolOutputs ?? []).map((t) => t.content).join("\0\0"),
    (request.guardAllowPatterns ?? []).join("\0"),
    fingerprint,
  ];
  return createHash("sha256").update(preimage.join("\u0001")).digest("hex");
}
