/**
 * The rendered document's bytes, kept beside its Response so that the HTTP
 * server (server/remix-handler.ts) can write them in one call instead of
 * reading them back through the Response's web stream. The Remix build and
 * the server load this module separately, hence the registry on globalThis.
 */

const holder = globalThis as typeof globalThis & { __shopDocumentBodies?: WeakMap<Response, Buffer> };
const bodies = (holder.__shopDocumentBodies ??= new WeakMap<Response, Buffer>());

/** A Response whose body is `body`, which `documentBodyOf` hands back. */
export function documentResponse(body: Buffer, init: ResponseInit): Response {
  const response = new Response(body as Uint8Array<ArrayBuffer>, init);
  bodies.set(response, body);
  return response;
}

/** The bytes of a Response made by `documentResponse`, or undefined for any other. */
export function documentBodyOf(response: Response): Buffer | undefined {
  return bodies.get(response);
}
