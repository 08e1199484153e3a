/**
 * Small real projects in temp folders: a Python package and a TypeScript app, each with the things
 * the compiler must handle (a secret to redact, a .env, a symlink leading outside, a binary, a
 * huge file, a nested .gitignore). Optionally a real git repository.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `aic-${prefix}-`));
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** A GitHub token shape secretlint's recommended preset detects. */
export const GITHUB_TOKEN = "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";
export const ENV_SECRET = "s3cr3t-from-dotenv-9f8e7d";

const AUTH_PY = `"""Password checks for the login flow."""
from .hashing import hash_password
from . import tokens

GITHUB_TOKEN = "${GITHUB_TOKEN}"


def verify_password(user, password):
    """Compare a password with the stored hash; unicode passwords are normalised first."""
    normalised = password.encode("utf-8")
    return hash_password(normalised) == user.password_hash


class LoginForm:
    """The login form."""

    def __init__(self, data):
        self.data = data

    def validate(self):
        return bool(self.data.get("username")) or bool(self.data.get("email"))
`;

const HASHING_PY = `import hashlib


def hash_password(raw):
    return hashlib.sha256(raw).hexdigest()
`;

const TOKENS_PY = `def make_token(user):
    return "tok-" + str(user.id)
`;

const ADDRESS_PY = `class AddressBook:
    def lookup_address(self, name):
        return self.addresses[name]
`;

const TEST_AUTH_PY = `from app.auth import verify_password


def test_verify_password():
    assert verify_password
`;

/** Builds the Python fixture; returns its root and a folder outside it (symlink target). */
export function pythonProject(options: { git?: boolean } = {}): { root: string; outside: string } {
  const base = tempDir("py");
  const root = join(base, "proj");
  const outside = join(base, "outside");
  writeFiles(outside, { "secret.txt": "OUTSIDE-THE-PROJECT\n" });
  const hugeLine = "x = 1  # padding\n";
  writeFiles(root, {
    "app/__init__.py": "",
    "app/auth.py": AUTH_PY,
    "app/hashing.py": HASHING_PY,
    "app/tokens.py": TOKENS_PY,
    "app/address.py": ADDRESS_PY,
    "tests/test_auth.py": TEST_AUTH_PY,
    "README.md": "# Demo\n\nRun `pip install -e .` then `pytest || echo failed`.\n",
    ".env": `DATABASE_PASSWORD=${ENV_SECRET}\n`,
    ".env.example": "DATABASE_PASSWORD=changeme\n",
    "certs/server.pem": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
    "assets/logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
    "data/blob.txt": Buffer.from([0x61, 0x00, 0x62, 0x00, 0xff]),
    "data/huge.py": hugeLine.repeat(Math.ceil((1.2 * 1024 * 1024) / hugeLine.length)),
    "package-lock.json": "{}\n",
    "node_modules/left-pad/index.js": "module.exports = 1;\n",
    ".gitignore": "*.log\n",
    "app/.gitignore": "generated_*.py\n",
    "app/generated_models.py": "class Generated: pass\n",
    "app/debug.log": "log line\n",
    ".aicignore": "scratch/\n",
    "scratch/notes.py": "def scratch(): pass\n",
  });
  symlinkSync(join(outside, "secret.txt"), join(root, "app/leak.py"));
  symlinkSync(join(root, "app/tokens.py"), join(root, "app/tokens_alias.py"));
  if (options.git) initGit(root);
  return { root, outside };
}

/** A Stripe-style live key shape; only our own secret-assignment rule can know it. */
export const TS_SECRET = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";

export function typescriptProject(): string {
  const base = tempDir("ts");
  const root = join(base, "app");
  writeFiles(base, { "outside.ts": "export const OUTSIDE_SECRET = 'outside-the-project';\n" });
  writeFiles(root, {
    "src/payments/config.ts": `export const stripeKey = "${TS_SECRET}";\nexport const retries = 3;\n`,
    ".env": "STRIPE_KEY=sk_live_from_dotenv_0123456789\n",
    "public/favicon.ico": Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]),
    "src/generated/huge.ts": `export const table = [${"1, ".repeat(400_000)}];\n`,
    "src/lib/.gitignore": "*.local.ts\n",
    "src/lib/secrets.local.ts": "export const local = 1;\n",
    "tsconfig.json": `{
  // comments are allowed (JSONC)
  "compilerOptions": { "baseUrl": ".", "paths": { "@lib/*": ["src/lib/*"] } },
}
`,
    "src/index.ts": `import { renderInvoice } from "@lib/invoice";\nimport { formatMoney } from "./money.js";\n\nexport function main(): string {\n  return renderInvoice(formatMoney(3));\n}\n`,
    "src/money.ts":
      "export type Currency = 'EUR' | 'USD';\n\nexport function formatMoney(amount: number, currency: Currency = 'EUR'): string {\n  return `${amount.toFixed(2)} ${currency}`;\n}\n",
    "src/lib/invoice.ts": `export interface Invoice {\n  total: number;\n}\n\nexport class InvoiceRenderer {\n  render(invoice: Invoice): string {\n    return \`Total: \${invoice.total}\` || "none";\n  }\n\n  renderLines(lines: string[]): string {\n    return lines.join("\\n");\n  }\n}\n\nexport const renderInvoice = (text: string): string => text.trim();\n`,
    "src/lib/index.ts": `export * from "./invoice";\n`,
    "src/app.min.js": "var a=1;",
    "dist/index.js": "compiled",
  });
  symlinkSync(join(base, "outside.ts"), join(root, "src/outside-link.ts"));
  return root;
}

export function initGit(root: string): void {
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init");
}
