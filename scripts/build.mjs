// Build: tsc emits src/ to dist/; esbuild bundles each Cursor hook into one self-contained .cjs
// (Node built-ins only at runtime) under dist/hooks/.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { hookBundleOptions } from "./hook-bundle-options.mjs";

const root = new URL("..", import.meta.url).pathname;
rmSync(join(root, "dist"), { recursive: true, force: true });
execFileSync(
  process.execPath,
  [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
  {
    cwd: root,
    stdio: "inherit",
  },
);
chmodSync(join(root, "dist/cli.js"), 0o755);

const hookSrc = join(root, "src/integrations/cursor/hooks");
const entries = existsSync(hookSrc)
  ? readdirSync(hookSrc).filter((f) => /^AIC-.*\.ts$/.test(f))
  : [];
mkdirSync(join(root, "dist/hooks"), { recursive: true });
for (const entry of entries) {
  await build({
    entryPoints: [join(hookSrc, entry)],
    outfile: join(root, "dist/hooks", entry.replace(/\.ts$/, ".cjs")),
    ...hookBundleOptions,
  });
}
console.log(`built dist/ and ${entries.length} hook bundle(s)`);
