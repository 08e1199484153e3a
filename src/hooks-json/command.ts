import { UnsupportedError } from "./errors.js";

/**
 * Render a hook `command` string from an argv, for the shell Cursor hands it to. Both grammars
 * quote every byte literally; anything a shell or Cursor itself might expand or split on ($,
 * backtick, NUL, CR/LF) is refused instead of escaped, because quoting cannot be proven to
 * disable Cursor's own preprocessing.
 */

/** posix: sh/bash/zsh on Linux and macOS. powershell: Windows PowerShell 5.1 and pwsh. */
export type ShellGrammar = "posix" | "powershell";
/** user: ~/.cursor/hooks.json, run with cwd ~/.cursor, so paths must be absolute. */
export type CommandScope = "project" | "user";

export const ARGV_LIMITS = { maxTokens: 32, maxTokenBytes: 4096, maxArgvBytes: 16_384 } as const;

export interface RenderOptions {
  /** Default "project". In "user" scope every token that contains a path separator must be an
   * absolute canonical path. */
  scope?: CommandScope;
}

export function renderCommand(
  argv: readonly string[],
  grammar: ShellGrammar,
  options: RenderOptions = {},
): string {
  if (grammar !== "posix" && grammar !== "powershell")
    throw new UnsupportedError("unknown-grammar");
  if (argv.length === 0 || argv[0] === "") throw new UnsupportedError("argv-empty");
  if (argv.length > ARGV_LIMITS.maxTokens) throw new UnsupportedError("argv-too-many");
  let total = 0;
  argv.forEach((token, argvIndex) => {
    checkToken(token, grammar, argvIndex);
    total += Buffer.byteLength(token, "utf8");
    if (
      options.scope === "user" &&
      hasSeparator(token, grammar) &&
      !isCanonicalPath(token, grammar)
    ) {
      throw new UnsupportedError("path-not-canonical", { argvIndex });
    }
  });
  if (total > ARGV_LIMITS.maxArgvBytes) throw new UnsupportedError("argv-too-large");
  return grammar === "posix" ? renderPosix(argv) : renderPowerShell(argv);
}

function checkToken(token: string, grammar: ShellGrammar, argvIndex: number): void {
  if (!isWellFormed(token)) throw new UnsupportedError("token-invalid-utf8", { argvIndex });
  if (Buffer.byteLength(token, "utf8") > ARGV_LIMITS.maxTokenBytes) {
    throw new UnsupportedError("token-too-large", { argvIndex });
  }
  if (token.includes("\0")) throw new UnsupportedError("token-nul", { argvIndex });
  if (/[\r\n]/.test(token)) throw new UnsupportedError("token-newline", { argvIndex });
  if (token.includes("$")) throw new UnsupportedError("token-dollar", { argvIndex });
  if (token.includes("`")) throw new UnsupportedError("token-backtick", { argvIndex });
  if (grammar === "powershell") {
    // Windows PowerShell 5.1 drops empty arguments and mangles embedded double quotes when it
    // builds a native command line; refusing them keeps argv exact on every PowerShell.
    if (token === "") throw new UnsupportedError("token-empty", { argvIndex });
    if (/["\u201c\u201d\u201e]/.test(token)) {
      throw new UnsupportedError("token-double-quote", { argvIndex });
    }
  }
}

/** Words made only of these characters mean themselves in every POSIX shell context. */
const POSIX_BARE = /^[A-Za-z0-9_@%+,./:-]+$/;

function renderPosix(argv: readonly string[]): string {
  return argv.map((t) => (POSIX_BARE.test(t) ? t : `'${t.replace(/'/g, `'"'"'`)}'`)).join(" ");
}

function renderPowerShell(argv: readonly string[]): string {
  // PowerShell treats the typographic single quotes as quote characters too; double each of
  // them like an ASCII apostrophe. `&` runs the quoted executable instead of echoing a string.
  const quote = (t: string) => `'${t.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
  return ["&", ...argv.map(quote)].join(" ");
}

function hasSeparator(token: string, grammar: ShellGrammar): boolean {
  return token.includes("/") || (grammar === "powershell" && token.includes("\\"));
}

/** Absolute, no empty, "." or ".." segments, no trailing separator, not the root itself. */
export function isCanonicalPath(path: string, grammar: ShellGrammar): boolean {
  if (grammar === "posix") {
    if (!path.startsWith("/") || path.length < 2) return false;
    return path
      .slice(1)
      .split("/")
      .every((s) => s !== "" && s !== "." && s !== "..");
  }
  const m = /^[A-Za-z]:\\(.+)$/.exec(path);
  if (!m || path.includes("/")) return false;
  return m[1]!.split("\\").every((s) => s !== "" && s !== "." && s !== "..");
}

function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}
