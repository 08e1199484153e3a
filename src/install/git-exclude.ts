/**
 * Keeps `.aic/` and the deployed hook scripts out of git without touching the user's
 * `.gitignore`: in a git work tree the lines are appended to the repository's `info/exclude`
 * (found through git itself, so worktrees and GIT_DIR work), each unless git already ignores it.
 * The scripts embed this machine's AIC path, so committing them would hand teammates hooks that
 * point nowhere; excluded, they also stay out of the files AIC compiles into context.
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { readBytes } from "./files.js";
import { Plan } from "./plan.js";
import { recordKey, type InstallTargets } from "./targets.js";

/** Each line with a path git can test it against (relative to the project root). */
export const EXCLUDE_LINES = [
  { line: ".aic/", probe: ".aic/" },
  { line: "**/.cursor/hooks/AIC-*.cjs", probe: ".cursor/hooks/AIC-session-init.cjs" },
] as const;

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

/** Is the path already ignored? (For `.aic/`, the folder itself: `*.json` must not count.) */
function alreadyIgnored(dir: string, probe: string): boolean {
  return git(dir, ["check-ignore", "-q", "--no-index", probe]).ok;
}

export function planGitExclude(plan: Plan, targets: InstallTargets): void {
  if (targets.scope !== "project") return;
  const path = gitExcludeFile(targets.root);
  if (!path) return;
  const missing = EXCLUDE_LINES.filter((e) => !alreadyIgnored(targets.root, e.probe));
  if (missing.length === 0) return;
  const before = readBytes(path);
  const text = before?.toString("utf8") ?? "";
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  const added = missing.map((e) => `${e.line}\n`).join("");
  const after = Buffer.from(`${text}${sep}${added}`, "utf8");
  plan.own(
    { key: recordKey(targets.root, path), path, role: "exclude", before, after },
    `excluded ${missing.map((e) => e.line).join(" and ")} from git in ${recordKey(targets.root, path)}`,
  );
}
