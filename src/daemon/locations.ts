/**
 * Where the daemon lives: one per user, under `~/.aic/run/` (folder 0700, socket 0600).
 * Node built-ins only: bundled into the Cursor hooks.
 */
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { aicHome, ensurePrivateDir, runDir } from "../shared/paths.js";

export interface DaemonPaths {
  dir: string;
  socket: string;
  /** The lock: holds the running daemon's pid, created exclusively. */
  pidFile: string;
  log: string;
}

/** Unix socket paths are limited to ~108 bytes; keep a margin. */
const MAX_SOCKET_PATH = 100;

export function daemonPaths(env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const dir = runDir(env);
  let socket = join(dir, "daemon.sock");
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    // A deep $HOME/$AIC_HOME cannot hold a socket; use a private per-user folder in the temp dir,
    // keyed by the AIC home so two homes never share a daemon.
    const key = createHash("sha256").update(aicHome(env)).digest("hex").slice(0, 16);
    socket = join(tmpdir(), `aic-${process.getuid?.() ?? "u"}`, `${key}.sock`);
  }
  return {
    dir,
    socket,
    pidFile: join(dir, "daemon.pid"),
    log: join(dir, "daemon.log"),
  };
}

/**
 * Create the run folder (0700) and the socket's folder, and refuse a folder that another user
 * owns or that is a symlink: a socket there could be read or replaced by someone else. Checked
 * before anything is changed, so a symlink's target is never chmod-ed.
 */
export function ensureDaemonDirs(paths: DaemonPaths): void {
  for (const dir of new Set([paths.dir, dirname(paths.socket)])) {
    assertPrivateOrMissing(dir);
    ensurePrivateDir(dir);
    assertPrivateOrMissing(dir);
  }
}

function assertPrivateOrMissing(dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const uid = process.getuid?.();
  if (st.isSymbolicLink() || !st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
    throw new Error(
      `AIC daemon folder ${dir} is not a private folder of this user (a symlink, not a folder, ` +
        `or another owner); remove it or set AIC_HOME to a folder you own.`,
    );
  }
}
