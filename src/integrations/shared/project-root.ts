/** Which project a hook runs for: CURSOR_PROJECT_DIR, then the payload's workspace root, then cwd. */
import { statSync } from "node:fs";
import { resolve } from "node:path";
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
