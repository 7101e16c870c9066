/** `run` streams to an OpenTelemetry collector with `--otel-endpoint URL` or `ISOBUDGET_OTEL_ENDPOINT` (the flag wins). */
export const OTEL_ENDPOINT_ENV = 'ISOBUDGET_OTEL_ENDPOINT';

export function otelEndpoint(flag: string | undefined, env: NodeJS.ProcessEnv): { url: string; source: string } | undefined {
  if (flag !== undefined && flag !== '') return { url: flag, source: '--otel-endpoint' };
  const fromEnv = env[OTEL_ENDPOINT_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { url: fromEnv.trim(), source: OTEL_ENDPOINT_ENV };
  return undefined;
}
