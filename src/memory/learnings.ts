/**
 * `.learnings/*.md` notes → `learning` records (seed §5, tier 1: low bar, noise allowed).
 * Front matter is optional; provenance a note lacks comes from the command's defaults
 * (--run/--base-url/… or --from-run), and a note still missing one of the six fields is
 * refused by name. A `level: rule` note waits frozen for a human. Pure.
 */
import { IsobudgetError } from '../core/errors.js';
import { initialWeight } from './conflicts.js';
import { intField, parseFrontMatter, stringField } from './front-matter.js';
import { nextId, nextMemoryId } from './ids.js';
import { newRecord } from './new-record.js';
import type { MemoryPolicy } from './policy.js';
import { requireProvenance } from './provenance.js';
import { PROVENANCE_FIELDS, type MemoryRecord, type Provenance } from './record.js';
import { cardFromFacts } from './review-card.js';
import type { ReviewItem } from './store/records.js';
import type { RecordWrite } from './store/spec.js';
import { nextVersion, writeOf } from './versioning.js';

export interface LearningNote {
  /** e.g. `.learnings/retry-storm.md`: the note's identity across imports. */
  source: string;
  text: string;
}

export interface LearningImportPlan {
  writes: RecordWrite[];
  reviewItems: ReviewItem[];
  messages: string[];
  refused: Array<{ source: string; message: string }>;
}

type NoteFields = Provenance & { subject: string; pattern: string | null; title: string; body: string; level: 'note' | 'rule' };

export function noteFields(note: LearningNote, defaults: Partial<Provenance>): NoteFields {
  const doc = parseFrontMatter(note.text);
  if (doc.problem) throw new IsobudgetError('learning_front_matter', `${note.source}: ${doc.problem}`, { location: { file: note.source, line: 1 } });
  const front = doc.data;
  const provenance: Partial<Provenance> = {
    source_run: stringField(front, 'source_run', 'run_id') ?? defaults.source_run,
    base_url: stringField(front, 'base_url') ?? defaults.base_url,
    model: stringField(front, 'model') ?? defaults.model,
    budget: intField(front, 'budget') ?? defaults.budget,
    n: intField(front, 'n') ?? defaults.n,
    verdict: stringField(front, 'verdict') ?? defaults.verdict,
  };
  requireProvenance(provenance, `from ${note.source}`);
  const body = doc.body.trim();
  const stem = note.source.replace(/^.*\//, '').replace(/\.md$/i, '');
  const title = stringField(front, 'title') ?? /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? stem;
  const pattern = stringField(front, 'pattern') ?? null;
  const level = stringField(front, 'level') === 'rule' ? 'rule' : 'note';
  return { ...(provenance as Provenance), subject: stringField(front, 'subject', 'candidate_id') ?? pattern ?? stem, pattern, title, body, level };
}

const RULE_REASON = 'awaiting human review: rule-level memory write';

export function planLearningImport(notes: readonly LearningNote[], defaults: Partial<Provenance>, snapshot: { records: readonly MemoryRecord[]; reviewIds: readonly string[] }, policy: MemoryPolicy, now: Date): LearningImportPlan {
  const plan: LearningImportPlan = { writes: [], reviewItems: [], messages: [], refused: [] };
  const ids = snapshot.records.map((r) => r.memory_id);
  const reviewIds = [...snapshot.reviewIds];
  for (const note of notes) {
    let fields: NoteFields;
    try {
      fields = noteFields(note, defaults);
    } catch (error) {
      plan.refused.push({ source: note.source, message: error instanceof IsobudgetError ? error.message : String(error) });
      continue;
    }
    const held = fields.level === 'rule' ? { status: 'frozen' as const, status_reason: RULE_REASON } : {};
    const existing = snapshot.records.find((r) => r.type === 'learning' && r.source === note.source);
    let record: MemoryRecord;
    if (existing) {
      const same = existing.body === fields.body && existing.title === fields.title && existing.level === fields.level && PROVENANCE_FIELDS.every((key) => existing[key] === fields[key]);
      if (same) {
        plan.messages.push(`${existing.memory_id}: ${note.source} unchanged`);
        continue;
      }
      record = nextVersion(existing, { ...fields, candidate_id: fields.subject, ...held }, `${note.source} changed`, now);
    } else {
      const memoryId = nextMemoryId(fields.subject, ids);
      ids.push(memoryId);
      record = newRecord(memoryId, 'learning', { ...fields, candidate_id: fields.subject, source: note.source, weight: initialWeight('learning', policy), run_ids: [fields.source_run], changelog: `imported from ${note.source}`, ...held }, now);
    }
    plan.writes.push(writeOf(existing, record));
    plan.messages.push(`${record.memory_id} v${record.version} (learning${fields.level === 'rule' ? ', rule-level: frozen until a human approves' : ''}) ← ${note.source}`);
    if (fields.level === 'rule') {
      const reviewId = nextId('rev-', reviewIds, 4);
      reviewIds.push(reviewId);
      const at = now.toISOString();
      plan.reviewItems.push({
        review_id: reviewId, kind: 'memory_write', status: 'pending', memory_id: record.memory_id, memory_version: record.version, gate_id: null,
        reasons: ['rule-level memory write'],
        card: cardFromFacts(`rule-level memory write: ${fields.title}`, null, { diff: writeOf(existing, record).diff ?? '', facts: [`from ${note.source}, run ${fields.source_run}, verdict ${fields.verdict}`, 'approve = activate the rule, reject = retire it'] }),
        created_at: at, updated_at: at,
      });
    }
  }
  return plan;
}
