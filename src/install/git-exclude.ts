/**
 * Keeps `.aic/` out of git without touching the user's `.gitignore`: in a git work tree the line
 * `.aic/` is appended to the repository's `info/exclude` (found through git itself, so worktrees
 * and GIT_DIR work), unless git already ignores the folder.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { readBytes } from "./files.js";
import { Plan } from "./plan.js";
import { recordKey, type InstallTargets } from "./targets.js";

export const EXCLUDE_LINE = ".aic/";

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  try {
    const out = execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return { ok: true, out: out.trim() };
  } catch {
    return { ok: false, out: "" };
  }
}

/** The `info/exclude` file of the work tree containing `dir`, or undefined outside git. */
export function gitExcludeFile(dir: string): string | undefined {
  if (git(dir, ["rev-parse", "--is-inside-work-tree"]).out !== "true") return undefined;
  const res = git(dir, ["rev-parse", "--git-path", "info/exclude"]);
  return res.ok && res.out ? resolve(dir, res.out) : undefined;
}

/** Is the folder itself ignored? (A file name would match broad patterns like `*.json`.) */
function alreadyIgnored(dir: string): boolean {
  return git(dir, ["check-ignore", "-q", "--no-index", EXCLUDE_LINE]).ok;
}

export function planGitExclude(plan: Plan, targets: InstallTargets): void {
  if (targets.scope !== "project") return;
  const path = gitExcludeFile(targets.root);
  if (!path || alreadyIgnored(targets.root)) return;
  const before = readBytes(path);
  const text = before?.toString("utf8") ?? "";
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  const after = Buffer.from(`${text}${sep}${EXCLUDE_LINE}\n`, "utf8");
  plan.own(
    { key: recordKey(targets.root, path), path, role: "exclude", before, after },
    `excluded .aic/ from git in ${recordKey(targets.root, path)}`,
  );
}
