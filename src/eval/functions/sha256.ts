/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) over binary strings, written here because the rule
 * functions need them synchronously and everywhere: `globalThis.crypto.subtle` is asynchronous, and
 * `node:crypto` would tie the evaluator to Node, while the library must run wherever JavaScript runs
 * (DESIGN.md). Inputs are small (a header, a URI), so a plain implementation is fast enough.
 */

/** The first `count` primes. */
function primes(count: number): number[] {
  const found: number[] = [];
  for (let n = 2; found.length < count; n++) if (found.every((p) => n % p !== 0)) found.push(n);
  return found;
}

/** The first 32 bits of a number's fractional part. */
const fractionBits = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) >>> 0;

// The constants are defined by the standard as these fractional parts; computing them (exactly, in double
// precision) spares a table of magic numbers. The tests check the digests against known values.
const PRIMES = primes(64);
const ROUND_CONSTANTS = Uint32Array.from(PRIMES, (p) => fractionBits(Math.cbrt(p)));
const INITIAL_HASH = Uint32Array.from(PRIMES.slice(0, 8), (p) => fractionBits(Math.sqrt(p)));

const rotateRight = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The 32-byte SHA-256 digest of the bytes, as a binary string. */
export function sha256(bytes: string): string {
  const length = bytes.length;
  // Message, the 0x80 marker, zeros, and the 64-bit bit length, in whole 64-byte blocks.
  const words = new Uint32Array(Math.ceil((length + 9) / 64) * 16);
  for (let i = 0; i < length; i++) words[i >> 2] |= (bytes.charCodeAt(i) & 0xff) << (24 - (i & 3) * 8);
  words[length >> 2] |= 0x80 << (24 - (length & 3) * 8);
  words[words.length - 2] = Math.floor((length * 8) / 2 ** 32);
  words[words.length - 1] = (length * 8) >>> 0;

  const hash = INITIAL_HASH.slice();
  const schedule = new Uint32Array(64);
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 16; t++) schedule[t] = words[block + t] as number;
    for (let t = 16; t < 64; t++) {
      const a = schedule[t - 15] as number;
      const b = schedule[t - 2] as number;
      const s0 = rotateRight(a, 7) ^ rotateRight(a, 18) ^ (a >>> 3);
      const s1 = rotateRight(b, 17) ^ rotateRight(b, 19) ^ (b >>> 10);
      schedule[t] = (schedule[t - 16] as number) + s0 + (schedule[t - 7] as number) + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[];
    for (let t = 0; t < 64; t++) {
      const sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25);
      const choice = (e & f) ^ (~e & g);
      const temp1 = (h + sum1 + choice + (ROUND_CONSTANTS[t] as number) + (schedule[t] as number)) | 0;
      const sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (sum0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + temp1) | 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + temp2) | 0;
    }
    // Uint32Array stores wrap modulo 2^32.
    hash[0] += a;
    hash[1] += b;
    hash[2] += c;
    hash[3] += d;
    hash[4] += e;
    hash[5] += f;
    hash[6] += g;
    hash[7] += h;
  }
  let digest = '';
  for (const word of hash) {
    digest += String.fromCharCode(word >>> 24, (word >>> 16) & 0xff, (word >>> 8) & 0xff, word & 0xff);
  }
  return digest;
}

const BLOCK_SIZE = 64;

/** An HMAC-SHA256 function for one key, with the padded keys computed once. */
export function hmacSha256(key: string): (message: string) => string {
  const blockKey = (key.length > BLOCK_SIZE ? sha256(key) : key).padEnd(BLOCK_SIZE, '\0');
  const pad = (byte: number) =>
    Array.from(blockKey, (c) => String.fromCharCode(c.charCodeAt(0) ^ byte)).join('');
  const innerPad = pad(0x36);
  const outerPad = pad(0x5c);
  return (message) => sha256(outerPad + sha256(innerPad + message));
}
