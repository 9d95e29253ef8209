import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv, type Env } from "@/lib/env";

/**
 * API keys at rest: AES-256-GCM under one key per installation, from COEVOLVE_SECRET_KEY (32 bytes
 * as 64 hex characters or base64) or else a key file created on first use in the data dir with
 * mode 0600. The web app seals; only the worker opens (lib/connections/resolve.ts).
 */

const VERSION = "v1";
const KEY_FILE = "secret.key";

function parseKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : Buffer.from(trimmed, "base64");
  if (key.length !== 32) {
    throw new Error(`${origin} must be 32 bytes, written as 64 hex characters or base64`);
  }
  return key;
}

export function loadSecretKey(env: Env = getEnv()): Buffer {
  if (env.COEVOLVE_SECRET_KEY) return parseKey(env.COEVOLVE_SECRET_KEY, "COEVOLVE_SECRET_KEY");
  const dir = path.resolve(env.COEVOLVE_DATA_DIR ?? ".data");
  const file = path.join(dir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      // "wx": of two processes starting at once, one writes and the other reads its key.
      fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
  }
  return parseKey(fs.readFileSync(file, "utf8"), file);
}

export function sealSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Throws a message that names no part of the secret when the box or key is wrong. */
export function openSecret(box: string, key: Buffer): string {
  const [version, iv, tag, sealed] = box.split(".");
  if (version !== VERSION || !iv || !tag || sealed === undefined) {
    throw new Error("the stored API key is not in a format this version can read");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, "base64url")),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw new Error(
      "the stored API key cannot be decrypted: COEVOLVE_SECRET_KEY (or the data dir's secret.key) changed since it was saved",
    );
  }
}

/** What people see of a key: its last 4 characters, or nothing for a key too short to hint at. */
export function secretHint(plain: string): string {
  return plain.length >= 12 ? `…${plain.slice(-4)}` : "…";
}
