/** Which project a hook runs for: CURSOR_PROJECT_DIR, then the payload's workspace root, then cwd. */
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, parse, resolve } from "node:path";
import { isObject, str, type Payload } from "./payload.js";

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function resolveProjectRoot(
  payload: Payload | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string {
  const candidates: (string | undefined)[] = [str(env.CURSOR_PROJECT_DIR)];
  const roots = payload?.workspace_roots ?? payload?.workspaceRoots;
  if (Array.isArray(roots)) candidates.push(...roots.map(str));
  if (payload && isObject(payload.input) && Array.isArray(payload.input.workspace_roots))
    candidates.push(...payload.input.workspace_roots.map(str));
  for (const c of candidates) if (c !== undefined && isDir(c)) return resolve(c);
  return resolve(cwd);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/**
 * A window without a project folder runs hooks from `/`, the home folder or `~/.cursor` (user-scope
 * installs run there). AIC cannot compile those (the service refuses `/` and home), so hooks stay
 * out of the way there.
 */
export function isUsableProjectRoot(root: string, home: string = homedir()): boolean {
  const r = real(root);
  const h = real(home);
  return parse(r).root !== r && r !== h && r !== join(h, ".cursor");
}
