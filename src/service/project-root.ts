/**
 * Every project tool takes an explicit projectRoot; nothing assumes the caller's working
 * directory. The root must be an existing folder, and never `/` or the home folder itself
 * (compiling either would scan the whole disk or every project at once).
 */
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, parse } from "node:path";
import { fileURLToPath } from "node:url";
import { AicInputError } from "./errors.js";

/** Some clients hand over workspace roots as file:// URIs. */
function fromFileUri(text: string): string {
  if (!text.startsWith("file:")) return text;
  try {
    return fileURLToPath(text);
  } catch (err) {
    throw new AicInputError(
      `projectRoot ${text} is not a usable file URI: ${(err as Error).message}`,
    );
  }
}

export function resolveProjectRoot(raw: unknown, homeDir: string = homedir()): string {
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new AicInputError(
      "projectRoot is required: pass the absolute path of the project folder",
    );
  }
  const given = fromFileUri(raw.trim());
  if (!isAbsolute(given)) {
    throw new AicInputError(
      `projectRoot must be an absolute path, got "${given}"; AIC never assumes the working directory is the project`,
    );
  }
  let stats;
  try {
    stats = statSync(given);
  } catch {
    throw new AicInputError(`projectRoot ${given} does not exist; pass an existing project folder`);
  }
  if (!stats.isDirectory()) {
    throw new AicInputError(
      `projectRoot ${given} is a file, not a folder; pass the project folder`,
    );
  }
  const root = realpathSync(given);
  const reason = broadRootReason(root, homeDir);
  if (reason !== undefined) throw new AicInputError(`projectRoot ${given} ${reason}`);
  return root;
}

/**
 * Why `root` (already real) must not be compiled as one project, or undefined when it may. Shared
 * by every entry point that takes a project folder, the CLI included.
 */
export function broadRootReason(root: string, homeDir: string = homedir()): string | undefined {
  if (parse(root).root === root)
    return "is the filesystem root; pass the folder of one project instead";
  let home: string | undefined;
  try {
    home = realpathSync(homeDir);
  } catch {
    home = undefined;
  }
  if (home !== undefined && root === home)
    return "is your home folder itself; pass the folder of one project inside it";
  return undefined;
}
