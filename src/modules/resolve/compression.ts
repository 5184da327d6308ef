// The brotli and gzip forms of a cached link body, each made once and off the event loop, and the Accept-Encoding choice between them (docs/architecture.md).
import { brotliCompress, constants, gzip } from 'node:zlib';

export type ContentCoding = 'br' | 'gzip';
export type Coding = ContentCoding | 'identity';

/** Bodies below this go out as they are: compressing them saves less than the bytes of the headers it adds. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Brotli's default quality (11) takes seconds on an Xray body of 660 KB; quality 5 takes milliseconds and keeps
 * most of the gain (docs/benchmarks.md, "Compressed links"). gzip keeps zlib's default level.
 */
export const BROTLI_QUALITY = 5;

export interface EncodedBody {
  body: Buffer;
  /** The identity ETag with the coding inside its quotes: every form is its own representation. */
  etag: string;
}

/** An encoded form, `null` when compressing failed (the identity form stands in), undefined while not yet made. */
export type FormState = EncodedBody | null | undefined;

export function encodedEtag(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** Compresses `body` in libuv's thread pool: a big body never holds the event loop. */
export function compress(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') gzip(body, done);
    else
      brotliCompress(
        body,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        },
        done,
      );
  });
}

/**
 * The compressed forms of one body, made on first demand for each coding and kept as long as the body is. `kept`
 * is told the bytes of each form made, for the render cache's budget.
 */
export class CompressedForms {
  private readonly made: Partial<Record<ContentCoding, EncodedBody | null>> = {};
  private readonly making: Partial<Record<ContentCoding, Promise<FormState>>> = {};

  constructor(
    private readonly body: Buffer,
    private readonly etag: string,
    private readonly kept: (bytes: number) => void,
  ) {}

  get(coding: ContentCoding): FormState {
    return this.made[coding];
  }

  /** Makes the form once; requests arriving meanwhile share the same compression. */
  make(coding: ContentCoding): Promise<FormState> {
    if (this.made[coding] !== undefined) return Promise.resolve(this.made[coding]);
    return (this.making[coding] ??= compress(this.body, coding).then(
      (body) => {
        this.made[coding] = { body, etag: encodedEtag(this.etag, coding) };
        this.kept(body.length);
        return this.made[coding];
      },
      () => (this.made[coding] = null),
    ));
  }
}

/** Forms for a body worth compressing, else null. */
export function formsFor(body: Buffer, etag: string, kept: (bytes: number) => void): CompressedForms | null {
  return body.length >= MIN_COMPRESSED_BYTES ? new CompressedForms(body, etag, kept) : null;
}

/** Parsed headers by their text: clients send the same few values again and again. */
const chosen = new Map<string, Coding>();
const MAX_REMEMBERED = 256;

/**
 * The coding for a request's Accept-Encoding (RFC 9110 12.5.3): the highest q of br and gzip (br first on a tie,
 * `*` standing for an unlisted one, `x-gzip` for gzip), unless identity is listed with a higher q; identity when
 * neither may be used. A client that refuses identity too (`identity;q=0`, `*;q=0`) still gets identity rather than
 * a 406: it is what it asked for the least badly.
 */
export function chooseCoding(header: string | string[] | undefined): Coding {
  if (header === undefined) return 'identity';
  const text = Array.isArray(header) ? header.join(',') : header;
  let coding = chosen.get(text);
  if (coding === undefined) {
    coding = parseAcceptEncoding(text);
    if (chosen.size >= MAX_REMEMBERED) chosen.clear();
    chosen.set(text, coding);
  }
  return coding;
}

function parseAcceptEncoding(text: string): Coding {
  const q: Record<string, number> = {};
  for (const element of text.split(',')) {
    const [name = '', ...params] = element.split(';');
    let coding = name.trim().toLowerCase();
    if (coding === '') continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      weight = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value.trim()) ? Number(value.trim()) : NaN;
    }
    if (Number.isNaN(weight)) continue; // a malformed q drops its element
    q[coding] = Math.max(q[coding] ?? 0, weight);
  }
  const of = (coding: string) => q[coding] ?? q['*'] ?? 0;
  const best = Math.max(of('br'), of('gzip'));
  if (best <= 0) return 'identity';
  if (q['identity'] !== undefined && q['identity'] > best) return 'identity';
  return of('br') === best ? 'br' : 'gzip';
}
