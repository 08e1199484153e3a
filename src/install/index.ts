/**
 * The Cursor installer's public API: `aic install|uninstall cursor`, `aic doctor`, and the
 * in-process entry the MCP server's editor bootstrap uses. See docs/install.md.
 */
import { installCursor, type InstallOptions, type InstallResult } from "./install-cursor.js";

export {
  installCursor,
  defaultInstallDeps,
  type InstallDeps,
  type InstallOptions,
  type InstallResult,
  type InstallStatus,
} from "./install-cursor.js";
export {
  uninstallCursor,
  defaultUninstallDeps,
  type UninstallDeps,
  type UninstallOptions,
  type UninstallResult,
  type UninstallStatus,
} from "./uninstall-cursor.js";
export {
  doctorCursor,
  defaultDoctorDeps,
  type DoctorDeps,
  type Finding,
  type Severity,
} from "./doctor.js";
export { LockBusyError } from "./lock.js";

/** Install for a project and throw when refused, so a caller that only logs errors sees why. */
export async function installCursorOrThrow(
  projectRoot: string,
  opts: Omit<InstallOptions, "projectRoot"> = {},
): Promise<InstallResult> {
  const result = await installCursor({ ...opts, projectRoot });
  if (result.status === "refused") {
    throw new Error(
      `aic install cursor refused, nothing was written: ${result.refusals.join("; ")}`,
    );
  }
  return result;
}
