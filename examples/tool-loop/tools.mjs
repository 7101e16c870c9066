/**
 * The tool-loop example's lookup tool (a `module` tool): the stock of one item, from
 * data/inventory.json. Ids look like K-1234; anything else throws, and that error is what the
 * model reads back (a sloppy `4821` gets "unknown item id"). Deterministic: the same call
 * always gives the same answer, so repeating it can only cost.
 */
import { readFileSync } from 'node:fs';

const INVENTORY = JSON.parse(readFileSync(new URL('./data/inventory.json', import.meta.url), 'utf8'));
const ITEM_ID = /^[A-Z]-\d{4}$/;

export function lookup(args) {
  const item = typeof args?.item === 'string' ? args.item.trim() : '';
  if (!ITEM_ID.test(item)) throw new Error(`unknown item id ${JSON.stringify(item)}: ids look like K-1234`);
  const stock = INVENTORY[item];
  if (stock === undefined) throw new Error(`no item ${item} in the inventory`);
  return { item, stock };
}
