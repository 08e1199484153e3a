/** What every tool module receives: the store, the compilation deps and the bootstrap seam. */
import type { CompilationDeps } from "../service/compilation-service.js";
import type { Db } from "../store/index.js";
import type { EditorBootstrap } from "./editor-bootstrap.js";

export interface ToolContext {
  db: () => Db;
  compilation: Partial<CompilationDeps>;
  bootstrap: EditorBootstrap;
  homeDir?: string;
  log: (line: string) => void;
}
