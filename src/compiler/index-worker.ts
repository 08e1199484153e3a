/**
 * Indexing thread: a first compile of a large project splits the files between the main thread
 * and this worker. It indexes against its own vocabulary and returns the word list with the
 * entries; the main thread maps the ids into its own vocabulary.
 */
import { parentPort, workerData } from "node:worker_threads";
import { indexFile, Vocabulary, type WorkerResult } from "./project-index.js";
import type { ScannedFile } from "./scan.js";

const { root, files } = workerData as { root: string; files: ScannedFile[] };
const vocab = new Vocabulary();
const cache = new Map<string, number[]>();
const result: WorkerResult = { words: vocab.words, files: [] };
for (const file of files) {
  const indexed = indexFile(root, file, vocab, cache, () => false);
  if (indexed) result.files.push({ file, ...indexed });
}
parentPort!.postMessage(
  result,
  result.files.flatMap((f) => (f.entry ? [f.entry.termIds.buffer as ArrayBuffer] : [])),
);
