import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../../core/errors.js';
import { lockDataDir } from './data-dir-lock.js';
import { Headroom } from './headroom.js';
import { WriteQueue } from './write-queue.js';

const full = (): never => {
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
};

describe('WriteQueue', () => {
  test('a refused write waits, in order, with every later one; the headroom is given back for them; trouble ends when the probe succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-queue-'));
    const headroom = new Headroom(join(dir, 'disk-headroom'), 4096);
    expect(headroom.ensure()).toBe(true);
    const logs: string[] = [];
    const queue = new WriteQueue(dir, headroom, (line) => logs.push(line));
    const written: string[] = [];
    let diskFull = true;
    const write = (name: string) => () => (diskFull ? full() : void written.push(name));
    const booked: string[] = [];
    queue.append(write('record-1'), () => booked.push('settle-1'));
    queue.append(write('record-2'));
    expect(queue.backlog).toBe(2);
    expect(queue.trouble()?.message).toBe(`isobudget gateway: cannot write to its data dir ${dir} (ENOSPC: no space left on the device); new calls are refused until writes succeed again`);
    expect(queue.writeNow(write('reservation'))).toBe(false);
    expect(existsSync(join(dir, 'disk-headroom'))).toBe(false);
    diskFull = false;
    await queue.flush();
    expect(written).toEqual(['record-1', 'record-2']);
    expect(booked).toEqual(['settle-1']);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(queue.trouble()).toBeUndefined();
    expect(existsSync(join(dir, 'disk-headroom'))).toBe(true);
    expect(queue.writeNow(write('reservation'))).toBe(true);
    expect(logs.at(-1)).toContain('succeed again');
    await queue.close();
  });
});

describe('data dir lock', () => {
  test('held by one gateway at a time, released with it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-lock-'));
    const lock = lockDataDir(dir);
    lock.announce('http://127.0.0.1:1234');
    expect(() => lockDataDir(dir)).toThrow(IsobudgetError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.pid}`);
    expect(() => lockDataDir(dir)).toThrow('http://127.0.0.1:1234');
    lock.release();
    lockDataDir(dir).release();
  });
});
