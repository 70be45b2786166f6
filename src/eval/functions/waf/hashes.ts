/**
 * MD5 (RFC 1321) and SHA-1 (FIPS 180-4) over binary strings, for the `t:md5` and `t:sha1` transformations.
 * Written here for the reason `../sha256.ts` gives: the transformations are synchronous and must run
 * wherever JavaScript runs, so neither `crypto.subtle` (asynchronous) nor `node:crypto` (Node only) will
 * do. CRS hashes short values (a User-Agent, a session id), so a plain implementation is fast enough. The
 * tests compare both against `node:crypto`.
 */

const rotateLeft = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

/**
 * The message, its 0x80 marker, zero padding and the 64-bit bit length, as 32-bit words in whole
 * 64-byte blocks. MD5 reads bytes and writes the length little-endian, SHA-1 big-endian.
 */
function padded(bytes: string, bigEndian: boolean): Uint32Array {
  const length = bytes.length;
  const words = new Uint32Array(Math.ceil((length + 9) / 64) * 16);
  const shift = (i: number): number => (bigEndian ? 24 - (i & 3) * 8 : (i & 3) * 8);
  for (let i = 0; i < length; i++) words[i >> 2] |= (bytes.charCodeAt(i) & 0xff) << shift(i);
  words[length >> 2] |= 0x80 << shift(length);
  const high = Math.floor((length * 8) / 2 ** 32);
  const low = (length * 8) >>> 0;
  const last = words.length - 1;
  words[last - 1] = bigEndian ? high : low;
  words[last] = bigEndian ? low : high;
  return words;
}

function wordsToBytes(words: readonly number[], bigEndian: boolean): string {
  let out = '';
  for (const word of words) {
    const b0 = word >>> 24;
    const b1 = (word >>> 16) & 0xff;
    const b2 = (word >>> 8) & 0xff;
    const b3 = word & 0xff;
    out += bigEndian ? String.fromCharCode(b0, b1, b2, b3) : String.fromCharCode(b3, b2, b1, b0);
  }
  return out;
}

// MD5's table is defined as the first 32 bits of |sin(i + 1)|, i = 0..63 (radians); computing it in double
// precision gives the published values exactly (the tests check digests against node:crypto).
const MD5_TABLE = Uint32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32));
const MD5_SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** The 16-byte MD5 digest of the bytes, as a binary string. */
export function md5(bytes: string): string {
  const words = padded(bytes, false);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  for (let block = 0; block < words.length; block += 16) {
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    for (let t = 0; t < 64; t++) {
      const round = t >> 4;
      let mixed: number;
      let index: number;
      if (round === 0) {
        mixed = (b & c) | (~b & d);
        index = t;
      } else if (round === 1) {
        mixed = (d & b) | (~d & c);
        index = (5 * t + 1) & 15;
      } else if (round === 2) {
        mixed = b ^ c ^ d;
        index = (3 * t + 5) & 15;
      } else {
        mixed = c ^ (b | ~d);
        index = (7 * t) & 15;
      }
      const sum = (mixed + a + (MD5_TABLE[t] as number) + (words[block + index] as number)) | 0;
      a = d;
      d = c;
      c = b;
      b = (b + rotateLeft(sum, MD5_SHIFTS[(round << 2) | (t & 3)] as number)) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
  }
  return wordsToBytes([h0, h1, h2, h3], false);
}

/** The 20-byte SHA-1 digest of the bytes, as a binary string. */
export function sha1(bytes: string): string {
  const words = padded(bytes, true);
  const schedule = new Int32Array(80);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0 | 0;
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 16; t++) schedule[t] = words[block + t] as number;
    for (let t = 16; t < 80; t++) {
      const x =
        (schedule[t - 3] as number) ^
        (schedule[t - 8] as number) ^
        (schedule[t - 14] as number) ^
        (schedule[t - 16] as number);
      schedule[t] = rotateLeft(x, 1);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      let mixed: number;
      let constant: number;
      if (t < 20) {
        mixed = (b & c) | (~b & d);
        constant = 0x5a827999;
      } else if (t < 40) {
        mixed = b ^ c ^ d;
        constant = 0x6ed9eba1;
      } else if (t < 60) {
        mixed = (b & c) | (b & d) | (c & d);
        constant = 0x8f1bbcdc | 0;
      } else {
        mixed = b ^ c ^ d;
        constant = 0xca62c1d6 | 0;
      }
      const next = (rotateLeft(a, 5) + mixed + e + constant + (schedule[t] as number)) | 0;
      e = d;
      d = c;
      c = rotateLeft(b, 30);
      b = a;
      a = next;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return wordsToBytes([h0, h1, h2, h3, h4], true);
}
