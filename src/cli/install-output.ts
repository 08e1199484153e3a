/** Output helpers shared by `aic install`, `aic uninstall` and `aic doctor`. */
import pc from "picocolors";

export const EDITOR_ARGUMENT = "<editor>";

export function requireCursor(editor: string, command: string): void {
  if (editor !== "cursor") {
    console.error(
      `aic ${command}: unknown editor "${editor}"; the only supported editor is cursor (aic ${command} cursor)`,
    );
    process.exit(2);
  }
}

export function printList(stream: NodeJS.WriteStream, title: string, items: string[]): void {
  if (items.length === 0) return;
  stream.write(`${title}\n${items.map((i) => `  - ${i}\n`).join("")}`);
}

export const SEVERITY_LABEL = {
  ok: pc.green("ok  "),
  warn: pc.yellow("warn"),
  fail: pc.red("FAIL"),
} as const;
