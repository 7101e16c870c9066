/**
 * A proposer reply → its proposals, pure. A proposal is a `### Proposal N: summary` heading
 * followed by a fenced diff; a reply with a diff but no heading (a repair) is one proposal.
 */

export interface ParsedProposal {
  /** 1-based slot the heading names (or the order it came in). */
  slot: number;
  summary: string;
  /** The diff text, or undefined when the section holds none. */
  diff: string | undefined;
}

const HEADING = /^#{1,4}\s*Proposal\s+(\d+)\s*[:.)-]?\s*(.*)$/gim;

export function parseProposals(reply: string): ParsedProposal[] {
  const headings = [...reply.matchAll(HEADING)];
  if (headings.length === 0) {
    const diff = firstDiff(reply);
    if (diff === undefined) return [];
    const summary = reply.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('```')) ?? '';
    return [{ slot: 1, summary: summary.replace(/^#+\s*/, ''), diff }];
  }
  return headings.map((heading, index) => {
    const start = (heading.index ?? 0) + heading[0].length;
    const end = headings[index + 1]?.index ?? reply.length;
    return { slot: Number(heading[1]), summary: (heading[2] ?? '').trim(), diff: firstDiff(reply.slice(start, end)) };
  });
}

/** The first fenced block that is a diff (```diff / ```patch, or any fence opening with ---/@@). */
function firstDiff(text: string): string | undefined {
  const fences = /^(`{3,})([^\n`]*)\n([\s\S]*?)^\1[ \t]*$/gm;
  for (const match of text.matchAll(fences)) {
    const info = (match[2] ?? '').trim().toLowerCase();
    const body = match[3] ?? '';
    if (info === 'diff' || info === 'patch' || /^(---|@@)/m.test(body)) return body;
  }
  return undefined;
}
