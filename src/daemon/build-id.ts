/**
 * The identity of an installed AIC package: its version plus the time `dist/cli.js` was built.
 * Client and daemon compute it from the same package root, so after an upgrade or a rebuild the
 * client notices the running daemon is older and replaces it. Node built-ins only (hook bundle).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export function buildId(aicPackageRoot: string): string {
  let version = "unknown";
  try {
    const pkg = JSON.parse(readFileSync(join(aicPackageRoot, "package.json"), "utf8")) as {
      version?: unknown;
    };
    if (typeof pkg.version === "string") version = pkg.version;
  } catch {
    // An unreadable package.json still yields a usable (if coarse) id.
  }
  let built = "0";
  try {
    built = String(Math.trunc(statSync(join(aicPackageRoot, "dist", "cli.js")).mtimeMs));
  } catch {
    // Running from sources (tests, tsx): the version alone identifies the build.
  }
  return `${version}+${built}`;
}
