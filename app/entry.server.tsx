import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { documentResponse } from "./lib/server/document-body.server";
import { inlineStylesOf } from "./lib/server/inline-styles.server";
import { getLogger } from "./lib/server/logger.server";
import { pageScriptsOf } from "./lib/server/page-scripts.server";
import { InlineStylesProvider } from "./lib/shared/inline-styles";
import { NonceProvider } from "./lib/shared/nonce";
import { PageScriptsProvider } from "./lib/shared/page-scripts";
import "./web/request.server";

/**
 * The document, rendered to one string. No loader defers data (every loader
 * has finished before rendering starts) and no component suspends, so there
 * is nothing to stream: the shell is the whole document. Rendering to a string
 * skips what streaming costs on every request (React's 2 KB chunks, each
 * encoded and written through web streams, compression and the socket).
 * Crawlers and no-JS clients get the whole document at once, as everybody does.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const markup = renderToString(
    <NonceProvider value={nonce}>
      <InlineStylesProvider value={inlineStylesOf(remixContext)}>
        <PageScriptsProvider value={pageScriptsOf(remixContext)}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </PageScriptsProvider>
      </InlineStylesProvider>
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return documentResponse(`<!DOCTYPE html>${markup}`, {
    headers: responseHeaders,
    status: responseStatusCode,
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
