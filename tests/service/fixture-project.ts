/**
 * A small TypeScript + Python project in a temp folder, and a temp HOME/AIC_HOME, so tests never
 * touch the real ~/.aic. Shared by the service, MCP and CLI diagnostics tests.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const FIXTURE_FILES: Record<string, string> = {
  "src/auth/login.ts": `import { findUser } from "../db/users.js";
import { hashPassword } from "./password.js";

/** Log a user in; throws when the password does not match. */
export function login(name: string, password: string): string {
  const user = findUser(name);
  if (!user || user.passwordHash !== hashPassword(password)) throw new Error("invalid credentials");
  return \`session-\${user.id}\`;
}
`,
  "src/auth/password.ts": `import { createHash } from "node:crypto";

/** Unicode passwords are normalised first so the same password always hashes the same. */
export function hashPassword(password: string): string {
  return createHash("sha256").update(password.normalize("NFC")).digest("hex");
}
`,
  "src/db/users.ts": `export interface User { id: number; name: string; passwordHash: string }

const USERS: User[] = [];

export function findUser(name: string): User | undefined {
  return USERS.find((u) => u.name === name);
}
`,
  "src/billing/invoice.ts": `export function invoiceTotal(lines: { amount: number }[]): number {
  return lines.reduce((sum, l) => sum + l.amount, 0);
}
`,
  "scripts/report.py": `def monthly_report(rows):
    """Sum invoice rows per month."""
    out = {}
    for row in rows:
        out[row["month"]] = out.get(row["month"], 0) + row["amount"]
    return out
`,
  "README.md": "# Fixture shop\n\nLogin, users and invoices.\n",
};

export interface Sandbox {
  /** Temp HOME (also the parent of AIC_HOME). */
  home: string;
  aicHome: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

export function makeSandbox(files: Record<string, string> = FIXTURE_FILES): Sandbox {
  const home = mkdtempSync(join(tmpdir(), "aic-home-"));
  const aicHome = join(home, ".aic");
  const project = join(home, "shop");
  for (const [rel, text] of Object.entries(files)) {
    const path = join(project, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { home, aicHome, project, env: { HOME: home, AIC_HOME: aicHome } };
}

/** Environment for a child process: PATH and node's own settings, temp HOME and AIC_HOME. */
export function childEnv(sandbox: Sandbox, extra: NodeJS.ProcessEnv = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: sandbox.home,
    AIC_HOME: sandbox.aicHome,
    NO_COLOR: "1",
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}
