/**
 * The project's own copy of a tool (ESLint, tsc), found locally and started without a shell or a
 * PATH lookup. Never a download.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../shared/payload.js";

export interface LocalBin {
  command: string;
  /** Arguments that come before the tool's own (the script, when run through Node). */
  prefix: string[];
}

/** The package's own bin script, e.g. node_modules/typescript/bin/tsc, when it declares one. */
function packageBin(projectRoot: string, pkg: string, name: string): string | undefined {
  const dir = join(projectRoot, "node_modules", pkg);
  try {
    const bin = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { bin?: unknown })
      .bin;
    const rel = typeof bin === "string" ? bin : isObject(bin) ? bin[name] : undefined;
    return typeof rel === "string" && existsSync(join(dir, rel))
      ? realpathSync(join(dir, rel))
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How to start the project's own `<name>`. Preferred: the package's declared bin script run by
 * this Node (no PATH lookup of `node`, no shell, works for npm, pnpm and Windows layouts alike).
 * Else `node_modules/.bin/<name>`: through Node when it is a Node script, else directly.
 */
export function localBin(projectRoot: string, pkg: string, name: string): LocalBin | undefined {
  const script = packageBin(projectRoot, pkg, name);
  if (script) return { command: process.execPath, prefix: [script] };
  const bin = join(projectRoot, "node_modules", ".bin", name);
  if (!existsSync(bin)) return undefined;
  const real = realpathSync(bin);
  const head = Buffer.alloc(128);
  const fd = openSync(real, "r");
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const firstLine = head.subarray(0, n).toString("utf8").split("\n")[0] ?? "";
  const isNodeScript =
    /\.(c|m)?js$/.test(real) || (firstLine.startsWith("#!") && /\bnode\b/.test(firstLine));
  return isNodeScript
    ? { command: process.execPath, prefix: [real] }
    : { command: bin, prefix: [] };
}
