/**
 * Where the AIC package lives, seen from a deployed hook. The hooks run from a project's
 * `.cursor/hooks/`, far from the package, yet the compiling hooks load the compiler from it.
 *
 * Contract with the installer: the bundled hook contains the string literal
 * "__AIC_PACKAGE_ROOT__" exactly once (below). At deploy time the installer replaces that literal,
 * quotes included, with a JSON string of the absolute package root. At run time:
 *   1. a replaced literal (an absolute path) wins;
 *   2. else $AIC_PACKAGE_ROOT;
 *   3. else two folders above the script (right for `<package>/dist/hooks/AIC-*.cjs`).
 */
import { isAbsolute, resolve } from "node:path";

// The one occurrence the installer rewrites. Keep it a plain string literal, used nowhere else.
const DEPLOYED_PACKAGE_ROOT: string = "__AIC_PACKAGE_ROOT__";

function scriptDirectory(): string {
  // Bundled hooks are CommonJS; the ESM build of this module is only imported for its logic.
  return typeof __dirname !== "undefined" ? __dirname : process.cwd();
}

export function aicPackageRootForHook(
  env: NodeJS.ProcessEnv = process.env,
  scriptDir: string = scriptDirectory(),
  deployed: string = DEPLOYED_PACKAGE_ROOT,
): string {
  // The placeholder is not an absolute path, so "replaced" means "is now absolute".
  if (isAbsolute(deployed)) return resolve(deployed);
  const fromEnv = env.AIC_PACKAGE_ROOT?.trim();
  if (fromEnv) return resolve(fromEnv);
  return resolve(scriptDir, "..", "..");
}
