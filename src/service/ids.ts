import { randomBytes } from 'node:crypto';

/** A new object id: 32 lowercase hex characters (128 random bits), as Cloudflare's ids look. */
export const newId = (): string => randomBytes(16).toString('hex');

const ID = /^[0-9a-f]{32}$/;

/** Whether a string has the shape of an id. */
export const isId = (value: string): boolean => ID.test(value);

/** The current time as the API writes it (ISO 8601, UTC, milliseconds). */
export const now = (): string => new Date().toISOString();
