/**
 * Writes a client config without ever losing the old one: an existing file is copied to
 * `FILE.bak-YYYYMMDD-HHMMSS` first, and the new text is written to a temp file and renamed
 * into place, so a crash leaves either the old file or the new one.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function backupName(file: string, now: Date, exists: (path: string) => boolean = existsSync): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  let name = `${file}.bak-${stamp}`;
  for (let i = 1; exists(name); i += 1) name = `${file}.bak-${stamp}-${i}`;
  return name;
}

/** Returns the backup's path, if there was a file to back up. `secret`: the text holds a key, so owner-only. */
export function writeWithBackup(file: string, text: string, secret: boolean, now = new Date()): string | undefined {
  mkdirSync(dirname(file), { recursive: true });
  let backup: string | undefined;
  if (existsSync(file)) {
    backup = backupName(file, now);
    copyFileSync(file, backup);
  }
  const temp = `${file}.tmp-${process.pid}`;
  writeFileSync(temp, text, { mode: secret ? 0o600 : 0o644 });
  if (secret) chmodSync(temp, 0o600);
  renameSync(temp, file);
  return backup;
}
