/**
 * A spare file of zeros in the data dir, given back when the disk fills: the calls already on
 * their way upstream when it fills may bill, and their records must still land in the ledger.
 * Deleting it frees room for them at once; writing it again is how the gateway learns the
 * disk has room for new calls.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** Room for the records of a few thousand calls in flight (bytes). */
export const HEADROOM_BYTES = 1024 * 1024;

export class Headroom {
  constructor(readonly path: string, private readonly bytes = HEADROOM_BYTES) {}

  /** True when the spare room is in place (written now if it was not). */
  ensure(): boolean {
    try {
      if (existsSync(this.path) && statSync(this.path).size >= this.bytes) return true;
      writeFileSync(this.path, Buffer.alloc(this.bytes), { mode: 0o600 });
      return true;
    } catch {
      this.release();
      return false;
    }
  }

  /** Frees the spare room; true when there was some to free. */
  release(): boolean {
    if (!existsSync(this.path)) return false;
    rmSync(this.path, { force: true });
    return true;
  }
}
