/**
 * What the PostgreSQL backends serving some processes are doing, sampled: every `everyMs`
 * one look at pg_stat_activity for the backends whose application_name is in `names`, counted
 * by what they wait on — `Lock:tuple` / `Lock:transactionid` are calls queued on a row lock
 * (the key row, a lease stripe), `IO:WalSync` a commit's flush, `Client:ClientRead` a backend
 * idle, waiting for its replica, `CPU` one running — each labelled with the statement it runs
 * (`label(query)`, e.g. take = a call's reservation from a lease stripe, settle = a settlement
 * batch). Shares of all samples of active backends.
 */
export function sampleWaits(client, names, label = () => '', everyMs = 25) {
  const counts = new Map();
  let looks = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await client.query(
        `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'CPU') AS what, query FROM pg_stat_activity WHERE application_name = ANY($1::text[])`,
        [names],
      );
      looks += 1;
      for (const { state, what, query } of rows) {
        const name = state === 'active' ? `${what} ${label(query)}`.trim() : `${state}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const active = [...counts].filter(([label]) => !label.startsWith('idle')).reduce((sum, [, n]) => sum + n, 0);
    const shares = Object.fromEntries(
      [...counts].filter(([label]) => !label.startsWith('idle')).sort((a, b) => b[1] - a[1]).map(([label, n]) => [label, +(n / Math.max(1, active)).toFixed(3)]),
    );
    return { looks, active_per_look: +(active / Math.max(1, looks)).toFixed(2), active: shares };
  };
}
