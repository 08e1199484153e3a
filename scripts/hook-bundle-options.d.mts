import type { BuildOptions } from "esbuild";

export declare const hookBundleOptions: BuildOptions;
