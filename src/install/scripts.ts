/**
 * Plans the hook scripts in `.cursor/hooks/`: every script of the manifest, rendered from the
 * package's bundles, written only when the bytes differ and never over a file AIC did not write;
 * scripts AIC wrote earlier that left the manifest are removed when their bytes prove it.
 */
import { join } from "node:path";
import { existsSync } from "node:fs";
import { isDirectory, readBytes } from "./files.js";
import { Plan, writtenByAic } from "./plan.js";
import type { InstallState } from "./state.js";
import { pathOfKey, recordKey, type InstallTargets } from "./targets.js";

/** The bundles contain this exact literal (quotes included); deployment puts the package root there. */
const PACKAGE_ROOT_PLACEHOLDER = '"__AIC_PACKAGE_ROOT__"';

export function renderHookScript(bundle: Buffer, packageRoot: string): Buffer {
  const text = bundle.toString("utf8");
  return Buffer.from(
    text.split(PACKAGE_ROOT_PLACEHOLDER).join(JSON.stringify(packageRoot)),
    "utf8",
  );
}

export interface ScriptSource {
  scripts: readonly string[];
  /** The built bundles (`<package>/dist/hooks`). */
  bundleDir: string;
  packageRoot: string;
}

export function planScripts(
  plan: Plan,
  targets: InstallTargets,
  state: InstallState,
  source: ScriptSource,
  force: boolean,
): void {
  if (existsSync(targets.hooksDir) && !isDirectory(targets.hooksDir)) {
    plan.refusals.push(
      `${recordKey(targets.root, targets.hooksDir)} is a file, but Cursor's hook scripts live in a ` +
        `folder of that name: move the file away, then run the install again`,
    );
    return;
  }
  const bundles = new Map(source.scripts.map((s) => [s, readBytes(join(source.bundleDir, s))]));
  const missing = source.scripts.filter((s) => bundles.get(s) === null);
  if (missing.length > 0) {
    plan.refusals.push(
      `AIC's hook bundles are missing from ${source.bundleDir} (${missing.join(", ")}): ` +
        `build the package (npm run build) or reinstall aic, then run the install again`,
    );
    return;
  }
  for (const script of source.scripts) {
    const path = join(targets.hooksDir, script);
    const key = recordKey(targets.root, path);
    const before = readBytes(path);
    const after = renderHookScript(bundles.get(script)!, source.packageRoot);
    const foreign =
      before !== null && !before.equals(after) && !writtenByAic(state.files[key], before);
    if (foreign && !force) {
      plan.refusals.push(
        `${key} exists and was not written by AIC: move it away (or rerun with --force to ` +
          `replace it; its bytes are kept in the pre-install snapshot)`,
      );
      continue;
    }
    plan.own(
      { key, path, role: "script", before, after },
      before === null ? `added ${key}` : `updated ${key}`,
    );
  }
  for (const [key, record] of Object.entries(state.files)) {
    if (record.role !== "script" || plan.tracked.has(key)) continue;
    const path = pathOfKey(targets.root, key);
    const before = readBytes(path);
    if (before === null || writtenByAic(record, before)) {
      // Tracked as absent, so uninstall can still put back what the snapshot holds.
      plan.own({ key, path, role: "script", before, after: null }, `removed obsolete ${key}`);
    } else {
      plan.release(key);
      plan.kept.push(`kept ${key}: AIC no longer ships it, but it was edited since AIC wrote it`);
    }
  }
}
