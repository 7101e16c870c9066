/**
 * Fits terminal text to the terminal's width, pure. A line longer than the width wraps at
 * spaces; its continuation rows are indented two past the line's own indent, so a wrapped
 * sentence still reads as one item. A word longer than a row is cut. Without a width (a
 * pipe, a CI log) the text is left alone: one line per item stays easy to grep.
 */

/** Rows end one column short of the edge: text that fills the last column makes some terminals wrap an empty row. */
export function wrapToWidth(text: string, columns: number | undefined): string {
  if (columns === undefined || !Number.isFinite(columns) || columns < 20) return text;
  const room = columns - 1;
  return text.split('\n').map((line) => wrapLine(line, room).join('\n')).join('\n');
}

function wrapLine(line: string, room: number): string[] {
  if (width(line) <= room) return [line];
  const indent = /^ */.exec(line)?.[0].length ?? 0;
  const hanging = ' '.repeat(Math.min(indent + 2, Math.floor(room / 2)));
  const words = line.slice(indent).split(/ +/).filter((w) => w !== '');
  const rows: string[] = [];
  let row = ' '.repeat(indent);
  let rowHasWord = false;
  for (const word of words) {
    const prefix = rowHasWord ? `${row} ` : row;
    if (width(prefix) + width(word) <= room) {
      row = `${prefix}${word}`;
      rowHasWord = true;
      continue;
    }
    if (rowHasWord) {
      rows.push(row);
      row = hanging;
      rowHasWord = false;
    }
    let rest = word;
    // A word wider than a whole row (a long path, a URL) is cut into row-sized pieces.
    while (width(row) + width(rest) > room) {
      const take = room - width(row);
      rows.push(`${row}${[...rest].slice(0, take).join('')}`);
      rest = [...rest].slice(take).join('');
      row = hanging;
    }
    row = `${row}${rest}`;
    rowHasWord = rest !== '';
  }
  if (rowHasWord || rows.length === 0) rows.push(row);
  return rows;
}

/** Columns taken: one per code point (the CLI's own text holds no double-width characters). */
export function width(text: string): number {
  return [...text].length;
}
