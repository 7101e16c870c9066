/**
 * Text as a leak or duplicate check compares it (issue 24 item 7). Two strings a reader sees
 * as the same must compare equal: NFKC folds canonical (NFC/NFD: "é" as one code point or as
 * e + U+0301) and compatibility forms (full-width "ｆｕｌｌ", ligatures, "①"); default-ignorable
 * code points (zero-width space U+200B, joiners, soft hyphen U+00AD, BOM, variation selectors)
 * are invisible and dropped. Without this, pasting a test question with a zero-width space
 * into val passed the train/val/test disjointness check.
 */

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** NFKC with the default-ignorable code points removed (case and spacing kept). */
export function comparableForm(text: string): string {
  return text.normalize('NFKC').replace(IGNORABLE, '');
}

/** comparableForm, lowercased, whitespace runs collapsed to one space, trimmed. */
export function comparableText(text: string): string {
  return comparableForm(text).toLowerCase().replace(/\s+/g, ' ').trim();
}
