import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ARGV_LIMITS, renderCommand } from "../../src/hooks-json/index.js";
import { errorOf } from "./helpers.js";

/** A node one-liner that prints its argv as JSON; contains no $ or backtick. */
const ECHO_ARGV = ["node", "-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))"];

function runPosix(command: string): string[] {
  const out = execFileSync("/bin/sh", ["-c", command], {
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  return JSON.parse(out) as string[];
}

const hasPwsh = spawnSync("pwsh", ["-NoProfile", "-Command", "exit 0"]).status === 0;

describe("POSIX single-quote grammar", () => {
  // Red if any argument were split, globbed, expanded or lost by a real /bin/sh.
  it("round-trips hostile arguments exactly through /bin/sh", () => {
    const args = [
      "",
      "it's",
      "a b",
      "*",
      "~",
      "#x",
      ";rm",
      "a\\b",
      '"q"',
      "ünï 🚀",
      "-n",
      "x=1",
      "'",
      "''",
      "%1",
      "{a,b}",
    ];
    const command = renderCommand([...ECHO_ARGV, "--", ...args], "posix");
    expect(runPosix(command)).toEqual(args);
  });

  // Red if the apostrophe encoding changed (it is the seed's adjacent-quote form).
  it("encodes apostrophes as adjacent single/double quoted segments and leaves safe words bare", () => {
    expect(renderCommand(["node", "/opt/it's here/x.cjs"], "posix")).toBe(
      `node '/opt/it'"'"'s here/x.cjs'`,
    );
    expect(renderCommand(["node", ".cursor/hooks/AIC-x.cjs"], "posix")).toBe(
      "node .cursor/hooks/AIC-x.cjs",
    );
    expect(renderCommand(["a=b"], "posix")).toBe("'a=b'");
  });
});

describe("PowerShell grammar", () => {
  // Red if apostrophes (ASCII or typographic) were not doubled: PowerShell treats all as quotes.
  it("quotes every token, doubles all single-quote characters and calls with &", () => {
    expect(renderCommand(["C:\\n\\node.exe", "it's", "it\u2019s"], "powershell")).toBe(
      "& 'C:\\n\\node.exe' 'it''s' 'it\u2019\u2019s'",
    );
  });

  // Red if empty args or double quotes (mangled by Windows PowerShell 5.1) were accepted.
  it("refuses empty arguments and double quotes", () => {
    expect(errorOf(() => renderCommand(["node", ""], "powershell")).code).toBe("token-empty");
    expect(errorOf(() => renderCommand(["node", 'a"b'], "powershell")).code).toBe(
      "token-double-quote",
    );
  });

  // Red if the PowerShell rendering did not round-trip on a real pwsh (skipped without pwsh).
  it.skipIf(!hasPwsh)("round-trips through pwsh", () => {
    const args = ["it's", "a b", "*", "it\u2019s", "-x"];
    const out = execFileSync(
      "pwsh",
      ["-NoProfile", "-Command", renderCommand([...ECHO_ARGV, "--", ...args], "powershell")],
      {
        encoding: "utf8",
      },
    );
    expect(JSON.parse(out)).toEqual(args);
  });
});

describe("refusals common to both grammars", () => {
  // Red if a character that a shell or Cursor could expand or split on were let through.
  it.each([
    ["token-nul", "a\0b"],
    ["token-newline", "a\nb"],
    ["token-newline", "a\rb"],
    ["token-dollar", "$HOME"],
    ["token-backtick", "a`b"],
    ["token-invalid-utf8", "a\ud800b"],
  ])("refuses %s", (code, token) => {
    for (const grammar of ["posix", "powershell"] as const) {
      const err = errorOf(() => renderCommand(["node", token], grammar));
      expect(err.kind).toBe("unsupported");
      expect(err.code).toBe(code);
      expect(err.argvIndex).toBe(1);
    }
  });

  // Red if the size limits moved.
  it("enforces token, count and total size limits", () => {
    expect(() =>
      renderCommand(["n", "x".repeat(ARGV_LIMITS.maxTokenBytes)], "posix"),
    ).not.toThrow();
    expect(errorOf(() => renderCommand(["n", "x".repeat(4097)], "posix")).code).toBe(
      "token-too-large",
    );
    expect(errorOf(() => renderCommand(["n", "é".repeat(2049)], "posix")).code).toBe(
      "token-too-large",
    );
    expect(errorOf(() => renderCommand(Array(33).fill("a"), "posix")).code).toBe("argv-too-many");
    expect(errorOf(() => renderCommand(Array(5).fill("x".repeat(4000)), "posix")).code).toBe(
      "argv-too-large",
    );
    expect(errorOf(() => renderCommand([], "posix")).code).toBe("argv-empty");
    expect(errorOf(() => renderCommand([""], "posix")).code).toBe("argv-empty");
  });

  // Red if a user-scope path could be relative or non-canonical (cwd is ~/.cursor there).
  it("requires absolute canonical paths in user scope", () => {
    const user = { scope: "user" as const };
    expect(renderCommand(["node", "/home/u/.aic/hooks/AIC-x.cjs"], "posix", user)).toBe(
      "node /home/u/.aic/hooks/AIC-x.cjs",
    );
    for (const bad of ["rel/x.cjs", "/a/../b", "/a/./b", "//a/b", "/a//b", "/a/", "/"]) {
      expect(errorOf(() => renderCommand(["node", bad], "posix", user)).code).toBe(
        "path-not-canonical",
      );
    }
    expect(renderCommand(["C:\\Users\\u\\x.cjs"], "powershell", user)).toBe(
      "& 'C:\\Users\\u\\x.cjs'",
    );
    for (const bad of ["x\\y.cjs", "C:\\a\\..\\b", "C:/a/b", "C:\\a\\", "\\\\server\\share\\x"]) {
      expect(errorOf(() => renderCommand([bad], "powershell", user)).code).toBe(
        "path-not-canonical",
      );
    }
    // project scope allows the relative form Cursor resolves against the project
    expect(() => renderCommand(["node", ".cursor/hooks/x.cjs"], "posix")).not.toThrow();
  });
});
