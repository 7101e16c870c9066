/**
 * Substitutes `{{placeholder}}`s inside argv elements, pure. Each element stays one
 * argument whatever the substituted text holds (no shell ever sees it), so a case input
 * with quotes, `$(…)` or newlines reaches the agent verbatim.
 */
export type TemplateValues = Readonly<Record<string, string>>;

export function renderArgv(argv: readonly string[], values: TemplateValues): string[] {
  return argv.map((arg) => arg.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole));
}
