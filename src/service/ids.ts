import { randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn from the CSPRNG a few kilobytes at a time: one `randomBytes(16)` call per id cost more
 * than the rest of making a filter's record (the call into OpenSSL dominates, not the 16 bytes), as
 * Node's own `randomUUID` found and solved the same way.
 */
const POOL_BYTES = 4096;
const ID_BYTES = 16;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** A new object id: 32 lowercase hex characters (128 random bits), as Cloudflare's ids look. */
export function newId(): string {
  if (used + ID_BYTES > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('hex', used, used + ID_BYTES);
  used += ID_BYTES;
  return id;
}

const ID = /^[0-9a-f]{32}$/;

/** Whether a string has the shape of an id. */
export const isId = (value: string): boolean => ID.test(value);

/** The current time as the API writes it (ISO 8601, UTC, milliseconds). */
export const now = (): string => new Date().toISOString();
