/** Edited file paths from an afterFileEdit payload, whatever shape this Cursor version sends. */
import { isObject, str, type Payload } from "../shared/payload.js";

const SINGLE = ["file_path", "filePath", "file", "path"];
const LISTS = ["files", "paths", "editedFiles", "edited_paths", "edits"];
const SINGLE_OBJECTS = ["edit"];

function pathOf(v: unknown): string | undefined {
  if (typeof v === "string") return str(v);
  if (isObject(v)) for (const k of SINGLE) if (str(v[k])) return str(v[k]);
  return undefined;
}

export function editedPaths(p: Payload): string[] {
  const out: (string | undefined)[] = [];
  for (const k of SINGLE) out.push(pathOf(p[k]));
  for (const k of SINGLE_OBJECTS) out.push(pathOf(p[k]));
  for (const k of LISTS) {
    const v = p[k];
    if (Array.isArray(v)) out.push(...v.map(pathOf));
  }
  return out.filter((x): x is string => x !== undefined);
}
