/**
 * Where AIC keeps its state. Per user: `~/.aic` (override with AIC_HOME). Per project: `<root>/.aic`.
 * Everything AIC creates here is private to the user: folders 0700, files 0600.
 */
import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The user's AIC home: `$AIC_HOME` when set, else `~/.aic`. */
export function aicHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AIC_HOME?.trim();
  return resolve(fromEnv ? fromEnv : join(homedir(), ".aic"));
}

export function databasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(aicHome(env), "aic.sqlite");
}

/** Folder for daemon sockets and locks. */
export function runDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(aicHome(env), "run");
}

/** Folder for hook state, keyed by project hash and conversation (never flat names in /tmp). */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(aicHome(env), "state");
}

/** The index cache for one project, keyed by its hash so two projects never share entries. */
export function indexCacheDir(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(aicHome(env), "cache", projectHash(projectRoot));
}

export function projectAicDir(projectRoot: string): string {
  return join(projectRoot, ".aic");
}

/** A short stable id for a project root (the absolute, resolved path). */
export function projectHash(projectRoot: string): string {
  return createHash("sha256").update(resolve(projectRoot)).digest("hex").slice(0, 16);
}

/**
 * Create a folder (and parents) and make sure the leaf is private even if it existed. The leaf is
 * never followed through a symlink: chmod on a link would change its target (say, /tmp).
 */
export function ensurePrivateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new Error(
      `${dir} is not a plain folder (a symlink or a file); remove it so AIC can create its private folder there`,
    );
  }
  if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}
