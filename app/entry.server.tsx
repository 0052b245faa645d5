import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { getLogger } from "./lib/logger.server";
import { NonceProvider } from "./lib/nonce";
import "./web/request.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  // Crawlers and no-JS clients get the whole document at once.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) getLogger().error({ err: error }, "Rendering failed after the shell was sent");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
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
