/**
 * Guard: nothing secret leaves the machine in a compiled prompt. Secrets found by secretlint's
 * recommended rules, private key blocks and secret-looking assignments are redacted in place (the
 * file stays); `.env*` files (but `.env.example`) and key or certificate files are never included;
 * prompt-injection markers are flagged and neutralised. Ordinary code (`||`, union types, template
 * literals, shell commands in docs) passes untouched.
 */
import type { lintSource as LintSource } from "@secretlint/core";

type SecretLintConfig = Parameters<typeof LintSource>[0]["options"]["config"];

export interface GuardFinding {
  type: string;
  line: number;
}

export interface GuardResult {
  text: string;
  findings: GuardFinding[];
}

const ENV_ALLOWED = /^\.env\.(example|sample|template|dist|defaults)$/i;
const KEY_FILE = /\.(pem|key|p12|pfx|crt|cer|der|jks|keystore|p8|ppk|gpg|asc|kdbx)$/i;
const KEY_NAMES =
  /^(id_(rsa|dsa|ecdsa|ed25519)|\.netrc|\.pgpass|\.htpasswd|\.npmrc|\.pypirc|credentials)$/i;

/** Why a file must never be included, or undefined when it may be (after redaction). */
export function forbiddenFileReason(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (/^\.env/i.test(name) && !ENV_ALLOWED.test(name))
    return "environment file (.env*) is never included";
  if (KEY_FILE.test(name) || KEY_NAMES.test(name))
    return "key, certificate or credentials file is never included";
  return undefined;
}

const PRIVATE_KEY =
  /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY\2-----/g;

const SECRET_NAME =
  "[A-Za-z0-9_]{0,40}(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|KEY|AUTH|CREDENTIALS?)[A-Za-z0-9_]{0,40}";
/** Key formats with a recognisable prefix that secretlint's recommended set does not cover. */
const PREFIXED_KEYS: [RegExp, string][] = [
  [/\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g, "stripe-key"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, "google-api-key"],
];
/** `API_TOKEN=abc...` lines of dotenv-style files. */
const ENV_ASSIGNMENT = new RegExp(
  `^[ \\t]*(?:export[ \\t]+)?(${SECRET_NAME})[ \\t]*=[ \\t]*['"]?([^\\s'"#]+)`,
  "gim",
);
/** `api_key = "sk_live_..."` in code: only a quoted literal that looks random, never an expression. */
const CODE_ASSIGNMENT = new RegExp(
  `\\b(${SECRET_NAME})["']?[ \\t]*[:=][ \\t]*(["'])([A-Za-z0-9+/_\\-.=]{16,512})\\2`,
  "gi",
);
const PLACEHOLDER =
  /^(x+|\*+|<.*>|\$\{?.*|your[_-]?.*|changeme|example.*|dummy.*|test.*|placeholder.*|none|null|true|false|\d{1,6})$/i;

/** Phrases and tokens that only make sense as an attack on the reading model (kept tight: docs say "you are now in the folder" innocently). */
const INJECTION_MARKERS: RegExp[] = [
  /\bignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|prompts?|messages?|rules)\b/gi,
  /\bdisregard (?:all |any )?(?:the )?(?:previous|prior|above|system) (?:instructions|prompts?|messages?)\b/gi,
  /\bforget (?:all |everything )?(?:your|the) (?:previous |prior )?instructions\b/gi,
  /\byou are now (?:DAN|an? (?:unrestricted|unfiltered|jailbroken|evil)\b)[^.\n]{0,40}/gi,
  /\bnew system (?:prompt|instructions):/gi,
  /<\|(?:im_start|im_end|im_sep|endoftext|system|assistant|user)\|>/gi,
  /\[\/?INST\]|<<\/?SYS>>/g,
  /<\/?(?:system|system-prompt)>/gi,
];

export interface GuardDeps {
  /** Secretlint over one file; returns [start, end, type] spans. */
  findSecrets: (path: string, text: string) => Promise<[number, number, string][]>;
}

let secretlint:
  | Promise<{ lint: (path: string, text: string) => Promise<[number, number, string][]> }>
  | undefined;

async function findSecrets(path: string, text: string): Promise<[number, number, string][]> {
  secretlint ??= (async () => {
    const [{ lintSource }, preset] = await Promise.all([
      import("@secretlint/core"),
      import("@secretlint/secretlint-rule-preset-recommend"),
    ]);
    const config: SecretLintConfig = {
      rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset.creator }],
    };
    return {
      lint: async (p: string, t: string) => {
        const result = await lintSource({
          source: { filePath: `/${p}`, content: t, contentType: "text" },
          options: { config },
        });
        return result.messages.map(
          (m) =>
            [m.range[0], m.range[1], ruleType(m.ruleId, m.messageId)] as [number, number, string],
        );
      },
    };
  })();
  return (await secretlint).lint(path, text);
}

/** "@secretlint/secretlint-rule-aws" + "AWSSecretAccessKey" -> "aws-secret-access-key". */
function ruleType(ruleId: string, messageId: string): string {
  const id = messageId || ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .replace(/[_\s]+/g, "-")
    .toLowerCase();
}

export const defaultGuardDeps: GuardDeps = { findSecrets };

/**
 * Does a literal look like generated key material rather than a name? Letters and digits mixed,
 * few separators (`user_profile_2023_v1` is a name), not a dotted name, and high character entropy.
 */
export function looksRandom(value: string): boolean {
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if ((value.match(/[_.-]/g) ?? []).length > 2 || /^[\w-]+\.[\w.-]+$/.test(value)) return false;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const c of counts.values()) entropy -= (c / value.length) * Math.log2(c / value.length);
  return entropy >= 3.2;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Redacts secrets and neutralises injection markers in one file's text. */
export async function guardText(
  path: string,
  text: string,
  allowPatterns: RegExp[] = [],
  deps: GuardDeps = defaultGuardDeps,
): Promise<GuardResult> {
  const spans: [number, number, string][] = [];
  for (const [s, e, type] of await deps.findSecrets(path, text)) spans.push([s, e, type]);
  for (const m of text.matchAll(PRIVATE_KEY))
    spans.push([m.index, m.index + m[0].length, "private-key"]);
  for (const [re, type] of PREFIXED_KEYS)
    for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[0].length, type]);
  const envLike = /(^|\/)\.env|\.(env|ini|cfg|conf|properties)$/i.test(path);
  if (envLike) {
    for (const m of text.matchAll(ENV_ASSIGNMENT)) {
      const value = m[2]!;
      if (PLACEHOLDER.test(value)) continue;
      const start = m.index + m[0].lastIndexOf(value);
      spans.push([start, start + value.length, "env-value"]);
    }
  }
  for (const m of text.matchAll(CODE_ASSIGNMENT)) {
    const value = m[3]!;
    if (PLACEHOLDER.test(value) || !looksRandom(value)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    spans.push([start, start + value.length, "secret-assignment"]);
  }

  const allowed = (s: number, e: number) => allowPatterns.some((re) => re.test(text.slice(s, e)));
  const findings: GuardFinding[] = [];
  // Merge overlaps, then replace right to left so earlier offsets stay valid.
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number, string][] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  let out = text;
  for (let i = merged.length - 1; i >= 0; i--) {
    const [s, e, type] = merged[i]!;
    if (allowed(s, e)) continue;
    findings.push({ type, line: lineAt(text, s) });
    // Keep the line structure so regions and line numbers stay true.
    const newlines = text.slice(s, e).split("\n").length - 1;
    out = `${out.slice(0, s)}[REDACTED:${type}]${"\n".repeat(newlines)}${out.slice(e)}`;
  }

  for (const re of INJECTION_MARKERS) {
    out = out.replace(re, (match: string, offset: number) => {
      findings.push({ type: "prompt-injection", line: lineAt(out, offset) });
      // Defuse: quote it and break special-token syntax so it reads as data, not an instruction.
      return `[AIC: flagged text "${match.replace(/</g, "‹").replace(/>/g, "›").replace(/\|/g, "¦")}"]`;
    });
  }
  findings.sort((a, b) => a.line - b.line || (a.type < b.type ? -1 : 1));
  return { text: out, findings };
}

/** Compiles guardAllowPatterns; a bad pattern is an error naming it. */
export function compileAllowPatterns(patterns: string[] = []): RegExp[] {
  return patterns.map((p) => {
    try {
      return new RegExp(p);
    } catch (err) {
      throw new Error(
        `guardAllowPatterns: "${p}" is not a valid regular expression (${(err as Error).message}); fix or remove it in aic.config.json`,
      );
    }
  });
}
