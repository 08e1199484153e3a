/**
 * Where the AIC package lives and what version it is. The installer deploys files from the
 * package it runs in, so everything is resolved from this module's own location
 * (dist/install/package-info.js or src/install/package-info.ts: two levels below the root).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILT_HOOKS_DIR } from "../integrations/cursor/manifest.js";

export function aicPackageRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

export function aicVersion(packageRoot = aicPackageRoot()): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof pkg.version !== "string")
    throw new Error(`${packageRoot}/package.json has no version`);
  return pkg.version;
}

/** The bundled hook scripts the build produced (`npm run build`). */
export function builtHooksDir(packageRoot = aicPackageRoot()): string {
  return join(packageRoot, BUILT_HOOKS_DIR);
}

/** The CLI entry Cursor starts as the MCP server (`node <root>/dist/cli.js serve`). */
export function cliEntry(packageRoot = aicPackageRoot()): string {
  return join(packageRoot, "dist", "cli.js");
}
