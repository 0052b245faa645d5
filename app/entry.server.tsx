import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getLogger } from "./lib/logger.server";
import { NonceProvider } from "./lib/nonce";
import "./lib/request.server";

const ABORT_DELAY = 5_000;

/**
 * The document, rendered whole and sent as one buffer. No loader defers data
 * (every loader has finished before rendering starts), so the shell and the
 * whole document are ready at the same moment and streaming would only cut
 * the page into React's 2 KB chunks, each one more write through web streams,
 * compression and the socket. Crawlers and no-JS clients get the whole
 * document at once, as everybody does.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let abortRender = () => {};
    const timeout = setTimeout(() => abortRender(), ABORT_DELAY);
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(
          new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }),
        );
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors of the shell itself reach Remix's handleError through onShellError.
          if (shellRendered) getLogger().error({ err: error }, "Rendering failed after the shell was ready");
        },
      },
    );
    abortRender = abort;
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // Aborted requests (the client went away) are not errors of ours.
  if (request.signal.aborted) return;
  // A client's mistake (405 for a method a page does not take, 4xx we threw) is an answer, not an error.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  getLogger().error(
    { err: error, method: request.method, path: new URL(request.url).pathname },
    "Request failed",
  );
};
