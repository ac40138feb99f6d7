import parsePrometheusTextFormat, {
  type ParsedFamily,
  type ParsedSample,
} from 'parse-prometheus-text-format';

/** A parsed exposition, read by family name and labels. */
export interface Scrape {
  families: ParsedFamily[];
  /** The family's sample whose labels include `labels`; throws naming what is missing. */
  sample(name: string, labels?: Record<string, string>): ParsedSample;
  /** Its value as a number. */
  value(name: string, labels?: Record<string, string>): number;
}

/** Parses Prometheus text with a real parser, not ours. */
export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  const sample = (name: string, labels: Record<string, string> = {}) => {
    const family = families.find((f) => f.name === name);
    if (!family) throw new Error(`no metric ${name} in:\n${text}`);
    const found = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    if (!found) throw new Error(`no ${name}${JSON.stringify(labels)} in ${JSON.stringify(family.metrics)}`);
    return found;
  };
  return { families, sample, value: (name, labels) => Number(sample(name, labels).value) };
}
