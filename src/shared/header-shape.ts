// Gives every request's headers object a shape V8 shares between requests, so reading a header hits V8's caches instead of missing them on every request.
/*
 * node:http builds each request's `headers` as `{}` and adds the client's headers in the order they came. V8 records
 * each first property added to a `{}` as a transition of that one empty shape and keeps at most 1,536 of them. The
 * service's schema compilers use them all up at start-up (fast-json-stringify keys a fresh object by a new schema id
 * for every serializer, and Ajv's code generator does the like), so without this module no request's headers find a
 * transition: each gets a shape of its own and every header read (Node's own and ours, about ten a link request)
 * misses V8's inline caches and goes through the runtime: 4.5% of the warm link's CPU, and a tenth to a sixth of its
 * throughput (docs/benchmarks.md). Imported first by the CLI, it adds the transitions for the header names clients send first
 * while there is room, and keeps one object of each shape alive so a full collection does not drop them.
 */

/** The header names a client's request starts with in practice (HTTP/1.1 clients and proxies send Host first). */
const FIRST_HEADERS = [
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'content-type',
  'content-length',
  'cookie',
  'authorization',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'cache-control',
  'if-none-match',
];

/** One object per seeded shape, built the way node:http builds headers (a string value added to `{}`). */
const kept: ReadonlyArray<Record<string, string>> = FIRST_HEADERS.map((name) => {
  const headers: Record<string, string> = {};
  headers[name] = '';
  return headers;
});

/** The kept objects (for tests: their first keys are the seeded names). */
export function keptHeaderShapes(): ReadonlyArray<Record<string, string>> {
  return kept;
}
