import { encodeBase64 } from './encoding.js';
import { builtFrom, type FunctionRuntime, isBytes, isInt, plain } from './runtime.js';
import { hmacSha256, sha256 } from './sha256.js';

/** Functions built on SHA-256: `sha256`, `uuidv4` and `is_timed_hmac_valid_v0`. */

/** The raw 32-byte digest; rules combine it with `encode_base64` (rules-language §7). */
const sha256Runtime = plain(([input]) => (isBytes(input) ? sha256(input) : undefined));

/**
 * A version-4 UUID derived from the seed, deterministically: the first 16 bytes of the seed's SHA-256
 * digest, with the version (4) and variant (10xx) bits set as RFC 9562 requires, in the usual 8-4-4-4-12
 * lower-case hex form. Cloudflare documents only "a random UUIDv4 based on the given argument (a source of
 * randomness)", meant for `cf.random_seed`; its exact derivation is not published, so our UUIDs differ from
 * Cloudflare's for the same seed. Hashing accepts a seed of any length (even empty) and keeps the result a
 * function of the whole seed, which makes simulations repeatable.
 */
export function uuidv4(seed: string): string {
  const digest = sha256(seed);
  let hex = '';
  for (let i = 0; i < 16; i++) {
    let byte = digest.charCodeAt(i);
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    if (i === 8) byte = (byte & 0x3f) | 0x80;
    hex += byte.toString(16).padStart(2, '0');
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const uuidv4Runtime = plain(([seed]) => (isBytes(seed) ? uuidv4(seed) : undefined));

/** The parts of a MessageMAC. */
interface MessageMac {
  message: string;
  timestamp: string;
  mac: string;
}

const MIN_MAC_LENGTH = 43;

/**
 * Splits a MessageMAC as Cloudflare's pattern `(.+)(.*)(\d{10})-(.{43,})` reads it: message, separator,
 * a 10-digit timestamp, `-`, and a MAC of at least 43 bytes running to the end. The first group is greedy,
 * so the timestamp is the last `\d{10}-` that still leaves 43 bytes after the dash; the separator is then
 * the last `separatorLength` bytes before the timestamp (the documented `lengthOfSeparator`), and the
 * message must keep at least one byte. (The pattern's `.` does not match a line break; HTTP values such as
 * the URI hold none, so the value is read as one line.)
 */
function splitMessageMac(value: string, separatorLength: number): MessageMac | undefined {
  for (let dash = value.length - MIN_MAC_LENGTH - 1; dash >= 11; dash--) {
    if (value.charCodeAt(dash) !== 0x2d /* - */) continue;
    const timestamp = value.slice(dash - 10, dash);
    if (!/^[0-9]{10}$/.test(timestamp)) continue;
    const messageEnd = dash - 10 - separatorLength;
    if (messageEnd < 1) return undefined;
    return { message: value.slice(0, messageEnd), timestamp, mac: value.slice(dash + 1) };
  }
  return undefined;
}

/** `%XX` escapes only: a `+` is a Base64 character here, never an encoded space. */
function percentDecode(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/**
 * `is_timed_hmac_valid_v0(key, messageMAC, ttl, currentTimestamp, [lengthOfSeparator = 0], [flags])`, as
 * Cloudflare documents it (rules-language §7; the token-authentication guide shows how tokens are made):
 * the MAC is the HMAC-SHA256, keyed with `key`, of `message` followed by the 10-digit timestamp text (the
 * separator is not signed). It must equal the token's MAC, which is
 * - with flag `s`: URL-safe Base64 without padding, compared as is;
 * - otherwise: standard Base64 with padding, URL-encoded; `%XX` escapes are decoded before comparing
 *   (a MAC whose `+`, `/` or `=` were left unencoded therefore passes too: Cloudflare says they must be
 *   encoded, but not that an unencoded one fails).
 * The token is valid while `currentTimestamp < timestamp + ttl`, the documented formula (so a timestamp
 * in the future is not rejected). A malformed MessageMAC gives false; a missing argument gives a missing
 * result.
 */
const isTimedHmacValid: FunctionRuntime = {
  prepare([keyLiteral, , , , separatorLiteral, flagsLiteral]) {
    const macOf = builtFrom(keyLiteral, (key) => (isBytes(key) ? hmacSha256(key) : undefined));
    return ([keyArgument, messageMac, ttl, now, separatorArgument, flagsArgument]) => {
      const hmac = macOf(keyArgument);
      const separatorLength = separatorLiteral ?? separatorArgument ?? 0;
      const flags = flagsLiteral ?? flagsArgument ?? '';
      if (!hmac || !isBytes(messageMac) || !isInt(ttl) || !isInt(now)) return undefined;
      if (!isInt(separatorLength) || !isBytes(flags)) return undefined;
      if (separatorLength < 0) return false;
      const parts = splitMessageMac(messageMac, separatorLength);
      if (!parts) return false;
      if (!(now < Number(parts.timestamp) + ttl)) return false;
      const digest = hmac(parts.message + parts.timestamp);
      return flags.includes('s')
        ? parts.mac === encodeBase64(digest, 'u')
        : percentDecode(parts.mac) === encodeBase64(digest, 'p');
    };
  },
};

export const digestRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['is_timed_hmac_valid_v0', isTimedHmacValid],
  ['sha256', sha256Runtime],
  ['uuidv4', uuidv4Runtime],
]);
