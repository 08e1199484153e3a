// The esbuild options for one Cursor hook bundle: a self-contained .cjs needing only Node
// built-ins at runtime. Shared by scripts/build.mjs and the integration tests' own builds.
/** @type {import("esbuild").BuildOptions} */
export const hookBundleOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  minify: false,
  legalComments: "none",
  logLevel: "warning",
};
