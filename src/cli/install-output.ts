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

/**
 * Runs a command's body; an unexpected failure (a permission, a file where a folder should be)
 * becomes one clear line and exit 1 instead of a stack trace. Every write is atomic and
 * journaled, so the files are consistent and a rerun after fixing the cause is safe.
 */
export async function withFailureReport(command: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    console.error(
      `aic ${command}: ${(err as Error).message}\n` +
        `every file is either as it was or as AIC meant to leave it: fix the cause, then rerun`,
    );
    process.exitCode = 1;
  }
}
