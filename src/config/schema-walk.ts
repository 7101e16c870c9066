/**
 * Walks the zod schema along a key path, to find what an error message needs: the keys
 * allowed at that level (for "did you mean") and the field's description (for the hint).
 */
import { z } from 'zod';
import type { KeyPath } from './key-path.js';

type Schema = z.ZodType;

function unwrap(schema: Schema): Schema {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault) {
      current = current.unwrap() as Schema;
    } else return current;
  }
}

function objectOptions(schema: z.ZodUnion): z.ZodObject[] {
  const out: z.ZodObject[] = [];
  for (const option of (schema.options as readonly Schema[]).map(unwrap)) {
    if (option instanceof z.ZodObject) out.push(option);
    else if (option instanceof z.ZodUnion) out.push(...objectOptions(option));
  }
  return out;
}

/** The object option of a union that fits `value`: the one whose `type` literal matches, else the first. */
function pickOption(schema: z.ZodUnion, value: unknown): Schema | undefined {
  const objects = objectOptions(schema);
  if (value !== null && typeof value === 'object' && 'type' in value) {
    const wanted: unknown = (value as { type: unknown }).type;
    const match = objects.find((o) => {
      const literal = (o.shape as Record<string, Schema>)['type'];
      return literal instanceof z.ZodLiteral && [...literal.values].includes(wanted as never);
    });
    if (match) return match;
  }
  return objects[0];
}

interface Step {
  schema: Schema;
  description: string | undefined;
}

function step(schema: Schema, segment: string | number, value: unknown): Step | undefined {
  let current = unwrap(schema);
  if (current instanceof z.ZodUnion) current = pickOption(current, value) ?? current;
  let next: Schema | undefined;
  if (current instanceof z.ZodObject) next = (current.shape as Record<string, Schema>)[String(segment)];
  else if (current instanceof z.ZodRecord) next = current.valueType as Schema;
  else if (current instanceof z.ZodArray) next = current.element as Schema;
  if (!next) return undefined;
  // List items and map values inherit their container's description.
  return { schema: next, description: next.description ?? unwrap(next).description };
}

function walk(root: Schema, path: KeyPath, data: unknown): Step | undefined {
  let current: Step = { schema: root, description: root.description };
  let value = data;
  for (const segment of path) {
    const next = step(current.schema, segment, value);
    if (!next) return undefined;
    current = { schema: next.schema, description: next.description ?? current.description };
    value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[segment] : undefined;
  }
  return current;
}

/** Keys a strict object at `path` accepts (for the object variant that fits the data there). */
export function allowedKeysAt(root: Schema, path: KeyPath, data: unknown, valueThere: unknown): string[] {
  const found = walk(root, path, data);
  if (!found) return [];
  let target = unwrap(found.schema);
  if (target instanceof z.ZodUnion) target = pickOption(target, valueThere) ?? target;
  return target instanceof z.ZodObject ? Object.keys(target.shape) : [];
}

/** The description of the field at `path`, used as the "how to fix" hint. */
export function descriptionAt(root: Schema, path: KeyPath, data: unknown): string | undefined {
  return walk(root, path, data)?.description;
}

/** The schema of the field at `path` (for validating one value on its own, e.g. a CLI flag). */
export function schemaAt(root: Schema, path: KeyPath): Schema | undefined {
  return walk(root, path, undefined)?.schema;
}
