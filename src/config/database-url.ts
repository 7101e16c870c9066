/** Team mode is switched on by `--db URL` or `ISOBUDGET_DATABASE_URL` (the flag wins). */
export const DATABASE_URL_ENV = 'ISOBUDGET_DATABASE_URL';

export function databaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv): { url: string; source: string } | undefined {
  if (flag !== undefined && flag !== '') return { url: flag, source: '--db' };
  const fromEnv = env[DATABASE_URL_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: fromEnv.trim(), source: DATABASE_URL_ENV };
  return undefined;
}
