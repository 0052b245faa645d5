/**
 * The rendered document, kept as the string React rendered, so that the HTTP
 * server (server/remix-handler.ts) can hand it to the socket in one write
 * (Node encodes it there, together with the headers) instead of reading it
 * back through a web stream. Making a Response with a body costs a
 * ReadableStream, and a Buffer of the string an extra copy of the document:
 * together about 5 % of a listing page's server CPU (docs/decisions/0006). The Response
 * still reads like any other (`text()`, `arrayBuffer()`, `body`) for whoever
 * asks, which only tests and benchmarks do.
 *
 * The Remix build and the server load this module separately, hence the
 * registry on globalThis.
 */

const holder = globalThis as typeof globalThis & { __shopDocumentBodies?: WeakMap<Response, string> };
const bodies = (holder.__shopDocumentBodies ??= new WeakMap<Response, string>());

class DocumentResponse extends Response {
  readonly #html: string;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | null = null;

  constructor(html: string, init: ResponseInit) {
    super(null, init);
    this.#html = html;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    this.#stream ??= new Blob([this.#html]).stream();
    return this.#stream;
  }

  override get bodyUsed(): boolean {
    return this.#stream?.locked ?? false;
  }

  override text(): Promise<string> {
    return Promise.resolve(this.#html);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return new Blob([this.#html]).arrayBuffer();
  }
}

/** A Response whose body is the document `html`, which `documentBodyOf` hands back. */
export function documentResponse(html: string, init: ResponseInit): Response {
  const response = new DocumentResponse(html, init);
  bodies.set(response, html);
  return response;
}

/** The document of a Response made by `documentResponse`, or undefined for any other. */
export function documentBodyOf(response: Response): string | undefined {
  return bodies.get(response);
}
