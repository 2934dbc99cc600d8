/**
 * A library loaded by its first use and kept, rather than imported with the file that uses it:
 * `const loadSdk = loadOnce(() => import('some-sdk'))`. For libraries only some requests or jobs
 * need (a guardrail's detectors, a CSV reader, the mailer), which would otherwise each cost memory
 * and start-up time in every server that never uses them.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
