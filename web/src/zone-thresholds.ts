// The OWASP anomaly-score thresholds a zone file sets: an `execute` rule's override of a rule with
// `score_threshold` (docs/engine.md), by the id of the ruleset it executes.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function scoreThresholds(zone: unknown): Map<string, number> {
  const thresholds = new Map<string, number>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    if (!isRecord(value)) return;
    const parameters = value.action_parameters;
    if (value.action === 'execute' && isRecord(parameters) && typeof parameters.id === 'string') {
      const overrides = isRecord(parameters.overrides) ? parameters.overrides.rules : undefined;
      for (const override of Array.isArray(overrides) ? overrides : [])
        if (isRecord(override) && typeof override.score_threshold === 'number')
          thresholds.set(parameters.id, override.score_threshold);
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(zone);
  return thresholds;
}
