/**
 * Speed of planOwnedEntries/removeOwnedEntries on growing hooks.json files, as medians next to
 * JSON.parse of the same bytes in the same run (a measurement, not a test: no timed asserts).
 * Run: npx tsx tests/hooks-json/measure-plan-speed.ts
 */
import { planOwnedEntries, removeOwnedEntries } from "../../src/hooks-json/index.js";
import { HOOK_REGISTRATIONS } from "../../src/integrations/cursor/manifest.js";

const desired = HOOK_REGISTRATIONS.map((r) => ({
  event: r.event,
  argv: ["node", `.cursor/hooks/${r.script}`],
  fields: r.fields ?? {},
}));

function document(entries: number, pad: number): Uint8Array {
  const items = Array.from(
    { length: entries },
    (_, i) => `      { "command": "./f-${i}.sh", "note": "${"x".repeat(pad)}" }`,
  ).join(",\n");
  return new TextEncoder().encode(
    `{\n  "version": 1,\n  "hooks": {\n    "stop": [\n${items}\n    ]\n  }\n}\n`,
  );
}

function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

for (const [entries, pad] of [
  [10, 10],
  [2_000, 10],
  [12_000, 280],
] as const) {
  const bytes = document(entries, pad);
  const text = new TextDecoder().decode(bytes);
  const base: number[] = [];
  const install: number[] = [];
  const remove: number[] = [];
  for (let i = 0; i < 7; i++) {
    base.push(time(() => JSON.parse(text)));
    let result = planOwnedEntries({ bytes, desired, grammar: "posix" });
    install.push(time(() => (result = planOwnedEntries({ bytes, desired, grammar: "posix" }))));
    remove.push(time(() => removeOwnedEntries({ bytes: result.bytes, receipt: result.receipt })));
  }
  const b = median(base);
  console.log(
    `${(bytes.length / 1024).toFixed(0)} KiB, ${entries} foreign entries: ` +
      `JSON.parse ${b.toFixed(2)} ms | install 13 entries ${median(install).toFixed(1)} ms ` +
      `(${(median(install) / b).toFixed(0)}x) | remove ${median(remove).toFixed(1)} ms ` +
      `(${(median(remove) / b).toFixed(0)}x)`,
  );
}
