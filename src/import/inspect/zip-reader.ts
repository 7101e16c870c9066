/**
 * Reads the members of a ZIP archive (an inspect `.eval` log) from its central directory,
 * pure over the bytes: stored and deflated members, CRC-32 checked, sizes bounded (a member
 * inflates to at most what the directory declares, the archive to at most `maxTotalBytes`),
 * so a damaged or hostile archive is an error, never a hang or a memory blow-up.
 * ZIP64, encryption and other compressions (inspect may write zstd) are refused by name.
 * Layout: PKWARE APPNOTE.TXT 6.3 §4.3 (end of central directory, central file headers, local file headers).
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { IsobudgetError } from '../../core/errors.js';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

export interface ZipMember {
  name: string;
  /** Compression method (0 stored, 8 deflate). */
  method: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
  flags: number;
}

export function zipMembers(bytes: Buffer, file: string): ZipMember[] {
  const eocd = findEndOfDirectory(bytes, file);
  const entries = bytes.readUInt16LE(eocd + 10);
  const directorySize = bytes.readUInt32LE(eocd + 12);
  const directoryOffset = bytes.readUInt32LE(eocd + 16);
  if (entries === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) throw bad(file, 'is a ZIP64 archive, which this reader does not read', 'convert it to JSON: inspect log convert LOG.eval --to json --output-dir DIR');
  if (directoryOffset + directorySize > eocd) throw bad(file, 'has a central directory outside the file (truncated or damaged)');
  const members: ZipMember[] = [];
  let at = directoryOffset;
  for (let i = 0; i < entries; i += 1) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw bad(file, `central directory entry ${i + 1} is damaged`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    members.push({
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      crc: bytes.readUInt32LE(at + 16),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return members;
}

/** One member's bytes, inflated and checked. `budget.left`: bytes the archive may still inflate to. */
export function readZipMember(bytes: Buffer, member: ZipMember, file: string, budget: { left: number }): Buffer {
  const where = `member ${member.name}`;
  if ((member.flags & 1) !== 0) throw bad(file, `${where} is encrypted`);
  if (member.size > budget.left) throw bad(file, `${where} would inflate past the ${Math.round(budget.left / 1048576)} MiB left of the import's limit`);
  const at = member.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw bad(file, `${where}: local header damaged`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + member.compressedSize);
  if (data.length !== member.compressedSize) throw bad(file, `${where} is truncated`);
  let out: Buffer;
  if (member.method === 0) out = Buffer.from(data);
  else if (member.method === 8) {
    try {
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, member.size) });
    } catch (error) {
      throw bad(file, `${where} does not inflate: ${(error as Error).message}`);
    }
  } else throw bad(file, `${where} uses compression method ${member.method}${member.method === 93 ? ' (zstd)' : ''}; this reader inflates stored and deflated members`, 'convert it to JSON: inspect log convert LOG.eval --to json --output-dir DIR');
  if (out.length !== member.size || crc32(out) !== member.crc) throw bad(file, `${where} fails its CRC-32 or size check (damaged)`);
  budget.left -= out.length;
  return out;
}

function findEndOfDirectory(bytes: Buffer, file: string): number {
  const lowest = Math.max(0, bytes.length - 22 - MAX_COMMENT);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) if (bytes.readUInt32LE(at) === EOCD) return at;
  throw bad(file, 'is not a ZIP archive (no end of central directory record)', 'pass an inspect log: LOG.eval (a ZIP) or LOG.json');
}

function bad(file: string, message: string, hint?: string): IsobudgetError {
  return new IsobudgetError('import_zip', `the .eval archive ${message}`, { location: { file }, ...(hint ? { hint } : {}) });
}
