/**
 * previousFiles and toolOutputs[].relatedFiles are project-relative by contract, but agents often
 * pass what their tools printed: absolute paths, `./x`, Windows separators. Normalise those to the
 * compiler's form (relative, `/`-separated) so the boost applies; paths outside the project
 * cannot be boosted and are reported instead of silently doing nothing.
 */
import { isAbsolute, relative, sep } from "node:path";

export interface NormalisedPaths {
  paths: string[];
  outside: string[];
}

export function normaliseProjectPaths(
  paths: readonly string[],
  /** The project root as given and as resolved (they differ behind a symlink). */
  roots: readonly string[],
): NormalisedPaths {
  const out = new Set<string>();
  const outside: string[] = [];
  for (const raw of paths) {
    const p = raw.trim().replace(/\\/g, "/");
    if (!p) continue;
    if (isAbsolute(p)) {
      const inside = roots
        .map((root) => relative(root, p))
        .find((rel) => rel !== "" && !rel.startsWith("..") && !isAbsolute(rel));
      if (inside === undefined) outside.push(raw);
      else out.add(inside.split(sep).join("/"));
      continue;
    }
    const rel = p.replace(/^(\.\/)+/, "");
    if (rel === ".." || rel.startsWith("../")) outside.push(raw);
    else if (rel) out.add(rel);
  }
  return { paths: [...out], outside };
}
