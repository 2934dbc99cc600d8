/**
 * A number as en-US writes it (10000 → '10,000', 2.5 → '2.5', at most 3 decimals), for the limits
 * that messages name. Written out rather than `toLocaleString('en-US')`: the first ICU number format
 * a process builds maps about 7 MiB of Node's locale data for good, and contracts format their
 * messages as they load, so the server would hold it from its start (docs/product-rules.md: 150 MiB idle).
 */
export function formatNumber(value: number): string {
  const [whole, fraction] = String(Math.round(value * 1000) / 1000).split('.');
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (fraction ? `.${fraction}` : '');
}
