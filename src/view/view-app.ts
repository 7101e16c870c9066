/**
 * The viewer's screens behind one function: a path and its query in, a page out. The server
 * answers requests with it and the bundle writes files with it, so both show the same thing.
 * Everything is read-only except `decide`, which goes through the review queue's own code
 * (the same call as `review --decide`).
 */
import { compareRuns, type RunComparison } from '../compare/compare-runs.js';
import { renderResultsCsv } from '../export/csv/results-csv.js';
import { checkDatasets } from '../compare/dataset-check.js';
import { renderEvolveReport } from '../evolve/report/render.js';
import { listConflicts } from '../memory/conflicts.js';
import { effectiveWeight } from '../memory/decay.js';
import { storePolicy } from '../memory/store/open.js';
import type { MemoryStore } from '../memory/store/spec.js';
import { renderReportBody } from '../report/html/render-report.js';
import { decideItem, waitingItems } from '../review/queue.js';
import { isGridFilter, queryGrid, type GridQuery } from './case-grid.js';
import { listLoops, readLoop } from './evolve-source.js';
import { readGatewaySpend } from './gateway-source.js';
import { renderViewPage, type Screen } from './layout.js';
import type { Links } from './links.js';
import { casePage } from './pages/case-page.js';
import { gridSection } from './pages/case-grid-section.js';
import { comparePage, comparePicker, comparisonWarnings } from './pages/compare-page.js';
import { evolveLoopPage, evolvePage, mainOf } from './pages/evolve-page.js';
import { memoryPage, memoryRecordPage } from './pages/memory-page.js';
import { reviewPage, type ReviewEntry } from './pages/review-page.js';
import { runPage } from './pages/run-page.js';
import { runsPage } from './pages/runs-page.js';
import { spendPage } from './pages/spend-page.js';
import type { RunSource, RunView } from './run-source.js';
import { escapeHtml as h } from '../report/html/escape.js';

export interface ViewAppOptions {
  runs: RunSource;
  /** The memory/review store, or undefined when none exists (the viewer never creates one). */
  store: MemoryStore | undefined;
  storeLabel: string;
  gatewayDir: string | undefined;
  evolveDir: string;
  cwd: string;
  now?: () => Date;
}

export interface Page {
  status: number;
  html: string;
}

export const PAGE_SIZE = 50;

export class ViewApp {
  private readonly reportBodies = new WeakMap<RunView, Promise<string>>();
  private readonly comparisons = new WeakMap<RunView, WeakMap<RunView, RunComparison>>();

  constructor(private readonly options: ViewAppOptions) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private page(screen: Screen, title: string, body: string, links: Links, token?: string): Page {
    return { status: 200, html: renderViewPage({ title, screen, body, links, token }) };
  }

  notFound(links: Links, what: string): Page {
    return { status: 404, html: renderViewPage({ title: 'not found', screen: 'runs', body: `<h1>Not found</h1><p>${h(what)}</p><p><a href="${h(links.runs())}">all runs</a></p>`, links }) };
  }

  runsScreen(params: URLSearchParams, links: Links): Page {
    const filter = { experiment: params.get('experiment') ?? '', verdict: params.get('verdict') ?? '', since: params.get('since') ?? '' };
    return this.page('runs', 'Runs', runsPage(this.options.runs.list(this.now()), filter, links, this.options.runs.label), links);
  }

  reportBody(run: RunView): Promise<string> {
    let body = this.reportBodies.get(run);
    if (!body) {
      body = renderReportBody(run.report, { caseBrowser: false }).then((r) => r.body);
      this.reportBodies.set(run, body);
    }
    return body;
  }

  /**
   * Reads every run and draws its charts ahead of the first visit, newest first, one run per
   * turn of the event loop (requests are answered in between). Stops when `signal` aborts.
   */
  async warm(signal: AbortSignal): Promise<number> {
    let warmed = 0;
    for (const row of this.options.runs.list(this.now())) {
      if (signal.aborted) break;
      await new Promise((resolve) => setImmediate(resolve));
      const load = this.options.runs.load(row.id);
      if (!load?.ok) continue;
      await this.reportBody(load.run).catch(() => undefined);
      warmed += 1;
    }
    return warmed;
  }

  gridQuery(params: URLSearchParams): GridQuery {
    const filter = params.get('filter') ?? 'all';
    const page = Number.parseInt(params.get('page') ?? '1', 10);
    return { filter: isGridFilter(filter) ? filter : 'all', search: (params.get('q') ?? '').slice(0, 200), page: Number.isFinite(page) && page > 0 ? page - 1 : 0, pageSize: PAGE_SIZE };
  }

  /** `fragment`: only the grid (one request per filter or page change). */
  async runScreen(id: string, params: URLSearchParams, links: Links, fragment: boolean): Promise<Page> {
    const load = this.options.runs.load(id);
    if (!load) return this.notFound(links, `no run ${id} in ${this.options.runs.label}`);
    if (!load.ok) return this.page('run', id, `<h1>Run ${h(id)}</h1><div class="verdict tone-bad"><div class="verdict-name">broken</div><p class="reason">${h(load.broken)}</p></div>`, links);
    const { run } = load;
    const query = this.gridQuery(params);
    const page = queryGrid(run.rows, query, run.roles);
    if (fragment) {
      const inputs = new Map([...run.report.texts].map(([caseId, text]) => [caseId, text.input]));
      return { status: 200, html: gridSection({ runId: run.id, arms: run.manifest.arms, roles: run.roles, page, query, total: run.rows.length, inputs, links }) };
    }
    return this.page('run', run.id, runPage(run, await this.reportBody(run), page, query, links), links);
  }

  /** The bundle's run page: every row, filtered in the page. */
  async runScreenAll(run: RunView, links: Links): Promise<Page> {
    const query: GridQuery = { filter: 'all', search: '', page: 0, pageSize: Math.max(1, run.rows.length) };
    return this.page('run', run.id, runPage(run, await this.reportBody(run), queryGrid(run.rows, query, run.roles), query, links), links);
  }

  /** The run's results as CSV (analyze --csv's rows), or undefined when the run cannot be read. */
  csv(id: string): string | undefined {
    const load = this.options.runs.load(id);
    return load?.ok ? renderResultsCsv(load.run.results) : undefined;
  }

  caseScreen(id: string, caseId: string, split: string, links: Links): Page {
    const load = this.options.runs.load(id);
    if (!load?.ok) return this.notFound(links, `no readable run ${id}`);
    const body = casePage(load.run, caseId, split, this.options.runs.callsOf(load.run), links);
    return body === undefined ? this.notFound(links, `no case ${caseId} (${split}) in run ${id}`) : this.page('run', `${caseId} · ${id}`, body, links);
  }

  compareScreen(params: URLSearchParams, links: Links): Page {
    const runs = this.options.runs.list(this.now());
    const a = params.get('a') ?? undefined;
    const b = params.get('b') ?? undefined;
    const picker = comparePicker(runs, a, b);
    const head = '<h1>Compare</h1><p class="lede">Any two runs on the same cases: the per-case flips, the paired interval and the exact McNemar test, arm by arm.</p>';
    if (!a || !b) return this.page('compare', 'Compare', `${head}${picker}`, links);
    const loadA = this.options.runs.load(a);
    const loadB = this.options.runs.load(b);
    if (!loadA?.ok || !loadB?.ok) return this.page('compare', 'Compare', `${head}${picker}<p class="flag bad">${h(!loadA?.ok ? a : b)} is not a readable run.</p>`, links);
    const [x, y] = [loadA.run, loadB.run];
    let byB = this.comparisons.get(x);
    if (!byB) {
      byB = new WeakMap();
      this.comparisons.set(x, byB);
    }
    let comparison = byB.get(y);
    if (!comparison) {
      comparison = compareRuns({ dir: x.dir, manifest: x.manifest, results: x.results, verdict: x.verdict }, { dir: y.dir, manifest: y.manifest, results: y.results, verdict: y.verdict }, { forced: !checkDatasets(x.manifest, y.manifest).same });
      byB.set(y, comparison);
    }
    return this.page('compare', `${a} vs ${b}`, `${head}${picker}${comparePage(comparison, comparisonWarnings(x.manifest, y.manifest, comparison), links, y.manifest.split)}`, links);
  }

  async reviewScreen(links: Links, token: string | undefined): Promise<Page> {
    const store = this.options.store;
    if (!store) return this.page('review', 'Review', `<h1>Review</h1><p class="muted">No memory store at <code>${h(this.options.storeLabel)}</code> (pass <code>--store PATH</code> or <code>--db URL</code>).</p>`, links);
    const entries = async (items: Awaited<ReturnType<MemoryStore['listReviewItems']>>): Promise<ReviewEntry[]> =>
      Promise.all(items.map(async (item) => ({ item, layers: item.gate_id ? await store.listLayers(item.gate_id) : [], decisions: await store.listDecisions(item.review_id) })));
    const waiting = await waitingItems(store);
    const decided = (await store.listReviewItems()).filter((i) => i.status !== 'pending' && i.status !== 'deferred').reverse();
    return this.page('review', 'Review', reviewPage(await entries(waiting), await entries(decided), links, token !== undefined, this.options.storeLabel), links, token);
  }

  async decide(reviewId: string, decision: 'approve' | 'reject', reviewer: string, note: string | null): Promise<string> {
    const store = this.options.store;
    if (!store) throw new Error('no memory store');
    return decideItem(store, reviewId, { decision, reviewer, note }, this.now());
  }

  private knownRuns(): Set<string> {
    return new Set(this.options.runs.list(this.now()).map((r) => r.id));
  }

  async memoryScreen(memoryId: string | undefined, links: Links): Promise<Page> {
    const store = this.options.store;
    if (!store) return this.page('memory', 'Memory', `<h1>Memory</h1><p class="muted">No memory store at <code>${h(this.options.storeLabel)}</code>.</p>`, links);
    const policy = await storePolicy(store);
    const now = this.now();
    if (memoryId !== undefined) {
      const record = await store.getRecord(memoryId);
      if (!record) return this.notFound(links, `no memory record ${memoryId}`);
      return this.page('memory', memoryId, memoryRecordPage(record, await store.listVersions(memoryId), effectiveWeight(record, now, policy), links, this.knownRuns()), links);
    }
    const records = await store.listRecords();
    const weights = new Map(records.map((r) => [r.memory_id, effectiveWeight(r, now, policy)]));
    return this.page('memory', 'Memory', memoryPage(records, weights, listConflicts(records), links, this.knownRuns(), this.options.storeLabel), links);
  }

  async evolveScreen(loopId: string | undefined, links: Links): Promise<Page> {
    if (loopId === undefined) return this.page('evolve', 'Evolve', evolvePage(listLoops(this.options.evolveDir), links, this.options.evolveDir), links);
    const loop = readLoop(this.options.evolveDir, loopId);
    if (!loop) return this.notFound(links, `no loop ${loopId} in ${this.options.evolveDir}`);
    if (!loop.ok) return this.page('evolve', loopId, `<h1>Loop ${h(loopId)}</h1><p class="flag bad">${h(loop.broken)}</p>`, links);
    const { html } = await renderEvolveReport({ summary: loop.summary, lineage: loop.lineage });
    return this.page('evolve', loopId, evolveLoopPage(loopId, mainOf(html), links), links);
  }

  spendScreen(links: Links): Page {
    const dir = this.options.gatewayDir;
    let body: string;
    try {
      body = spendPage(dir === undefined ? undefined : readGatewaySpend(dir, this.options.cwd));
    } catch (error) {
      body = `<h1>Spend</h1><p class="flag bad">The gateway data dir cannot be read: ${h(error instanceof Error ? error.message : String(error))}</p>`;
    }
    return this.page('spend', 'Spend', body, links);
  }
}
