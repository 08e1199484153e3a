/**
 * SHA-256 in plain JavaScript, for the hooks only. Loading `node:crypto` (which pulls in the
 * stream modules) costs a Node process several milliseconds, about a third of a hook's own
 * start-up work (bench/hooks-speed.mjs); hashing a path or an id here takes microseconds.
 * Output is identical to `createHash("sha256")` (tests/integrations/hook-logic.test.ts).
 */

function primes(n: number): number[] {
  const out: number[] = [];
  for (let c = 2; out.length < n; c++) if (out.every((p) => c % p !== 0)) out.push(c);
  return out;
}
const frac32 = (x: number): number => Math.floor((x - Math.floor(x)) * 0x100000000) >>> 0;
const P = primes(64);
/** Round constants and initial state, from the primes as FIPS 180-4 defines them. */
const K = P.map((p) => frac32(Math.cbrt(p)));
const H0 = P.slice(0, 8).map((p) => frac32(Math.sqrt(p)));

const ror = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

export function sha256Hex(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  const blocks = Buffer.alloc(((bytes.length + 9 + 63) >> 6) << 6);
  bytes.copy(blocks);
  blocks[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  blocks.writeUInt32BE(Math.floor(bits / 0x100000000), blocks.length - 8);
  blocks.writeUInt32BE(bits >>> 0, blocks.length - 4);

  const h = [...H0];
  const w = new Array<number>(64).fill(0);
  for (let off = 0; off < blocks.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = blocks.readUInt32BE(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ror(a, 7) ^ ror(a, 18) ^ (a >>> 3);
      const s1 = ror(b, 17) ^ ror(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const t1 =
        (hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = (h[i]! + v) >>> 0));
  }
  return h.map((x) => x.toString(16).padStart(8, "0")).join("");
}
