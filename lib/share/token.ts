import { createHash, randomBytes } from "node:crypto";

/**
 * Share tokens are bearer secrets in a URL: 32 random bytes, base64url (43 characters). Only their
 * SHA-256 is stored, so a leaked database or log of the ShareLink table opens no share.
 */

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function generateShareToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

/** Hex SHA-256: the only form of a token the database ever sees. */
export function hashShareToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Cheap shape check before touching the database: anything else cannot be a token we issued. */
export function isWellFormedShareToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function sharePath(token: string): string {
  return `/share/${token}`;
}
