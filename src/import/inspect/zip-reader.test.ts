import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { readZipMember, zipMembers } from './zip-reader.js';

/** A minimal ZIP writer (APPNOTE 4.3), independent of the reader: one local header + data per member, then the central directory. */
function zip(members: Array<{ name: string; data: Buffer; method?: number; declaredSize?: number }>, options: { zip64Entries?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const method = member.method ?? 8;
    const body = method === 8 ? deflateRawSync(member.data) : member.data;
    const name = Buffer.from(member.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(member.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(member.declaredSize ?? member.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(member.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(member.declaredSize ?? member.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64Entries ? 0xffff : members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('zip reader', () => {
  test('reads deflated and stored members back', () => {
    const bytes = zip([{ name: 'header.json', data: Buffer.from('{"version":2}') }, { name: 'samples/a_epoch_1.json', data: Buffer.from('{"id":"a"}'), method: 0 }]);
    const members = zipMembers(bytes, 'x.eval');
    expect(members.map((m) => m.name)).toEqual(['header.json', 'samples/a_epoch_1.json']);
    expect(members.map((m) => readZipMember(bytes, m, 'x.eval', { left: 1 << 20 }).toString())).toEqual(['{"version":2}', '{"id":"a"}']);
  });

  test('a member that inflates past its declared size (a zip bomb) is an error, not a memory blow-up', () => {
    const bytes = zip([{ name: 'samples/bomb.json', data: Buffer.alloc(5_000_000, 0x20), declaredSize: 100 }]);
    const [member] = zipMembers(bytes, 'bomb.eval');
    if (!member) throw new Error('no member');
    expect(() => readZipMember(bytes, member, 'bomb.eval', { left: 1 << 30 })).toThrow(/does not inflate/);
  });

  test('the archive total is bounded; ZIP64 and zstd members are refused by name', () => {
    const bytes = zip([{ name: 'a.json', data: Buffer.alloc(2_000, 0x61) }]);
    const [member] = zipMembers(bytes, 'big.eval');
    if (!member) throw new Error('no member');
    expect(() => readZipMember(bytes, member, 'big.eval', { left: 1_000 })).toThrow(/would inflate past/);
    expect(() => zipMembers(zip([{ name: 'a.json', data: Buffer.from('{}') }], { zip64Entries: true }), 'z64.eval')).toThrow(/ZIP64/);
    const zstd = zip([{ name: 'header.json', data: Buffer.from('{}'), method: 93 }]);
    const [zstdMember] = zipMembers(zstd, 'zstd.eval');
    if (!zstdMember) throw new Error('no member');
    expect(() => readZipMember(zstd, zstdMember, 'zstd.eval', { left: 1 << 20 })).toThrow(/method 93 \(zstd\)/);
    expect(() => zipMembers(Buffer.from('not a zip at all, long enough for an end record'), 'n.eval')).toThrow(/not a ZIP archive/);
  });
});
