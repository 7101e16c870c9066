/**
 * Per-(epoch, path) request seed, the same mix the chat executor uses, so an agent path and a
 * chat path of the same case and index ask the upstream with the same seed. Constant over a
 * path's turns: a path is one sample, not a new one per turn.
 */
export function pathSeed(seed: number, epoch: number, path: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(epoch + 1, 0xc2b2ae35) ^ Math.imul(path + 1, 0x27d4eb2f);
  h ^= h >>> 16;
  return (h >>> 0) % 2_147_483_647;
}
