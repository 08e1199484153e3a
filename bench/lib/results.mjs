/** Appends one run to bench/RESULTS.md: date, commit, command and the table. */
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), "..", "RESULTS.md");

function gitCommit() {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync(
      "git",
      [
        "status",
        "--porcelain",
        "--",
        "src/compiler",
        "src/cli/compile.ts",
        "bench",
        ":(exclude)bench/RESULTS.md",
      ],
      { encoding: "utf8" },
    ).trim();
    return dirty ? `${sha} (+ uncommitted compiler changes)` : sha;
  } catch {
    return "unknown";
  }
}

export function recordRun(title, command, body) {
  if (!existsSync(RESULTS))
    writeFileSync(
      RESULTS,
      "# Benchmark results\n\nEvery run of `bench/quality.mjs` and `bench/speed-compiler.mjs` appends a section here.\n",
    );
  const section = `\n## ${title}: ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}\n\n- commit: ${gitCommit()}\n- command: \`${command}\`\n\n${body.trim()}\n`;
  appendFileSync(RESULTS, section);
  return RESULTS;
}

/** Fails with a message naming the variable when a required path is missing. */
export function requirePath(name, value, what) {
  if (!value) {
    console.error(`bench: ${name} is not set: point it at ${what}.`);
    process.exit(2);
  }
  if (!existsSync(value)) {
    console.error(`bench: ${name}=${value} does not exist: point it at ${what}.`);
    process.exit(2);
  }
  return value;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
