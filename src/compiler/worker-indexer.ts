/** Starts index-worker.js next to this module; rejects when it cannot (the caller then indexes itself). */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { WorkerIndexer, WorkerResult } from "./project-index.js";

const WORKER_URL = new URL("./index-worker.js", import.meta.url);

export const indexInWorker: WorkerIndexer = (root, files) =>
  new Promise<WorkerResult>((resolvePromise, reject) => {
    // Running from TypeScript sources (tests) there is no compiled worker: index in-thread.
    if (!existsSync(fileURLToPath(WORKER_URL))) return reject(new Error("index worker not built"));
    const worker = new Worker(WORKER_URL, { workerData: { root, files } });
    worker.once("message", (result: WorkerResult) => {
      resolvePromise(result);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`index worker exited with ${code}`));
    });
  });
