/**
 * The root of the running AIC package (where package.json and dist/ live). src/daemon/*.ts and
 * dist/daemon/*.js both sit two levels below it. Not for hook bundles (they have no
 * import.meta.url; they use integrations/shared/aic-package-root.ts).
 */
import { fileURLToPath } from "node:url";

export function aicPackageRoot(): string {
  return fileURLToPath(new URL("../..", import.meta.url));
}
