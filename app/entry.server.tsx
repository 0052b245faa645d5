import { renderToString } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isDatabaseUnavailable } from "./lib/server/errors.server";
import { inlineStylesOf } from "./lib/server/inline-styles.server";
import { getLogger } from "./lib/server/logger.server";
import { InlineStylesProvider } from "./lib/shared/inline-styles";
import { NonceProvider } from "./lib/shared/nonce";
import { requestInfoOf } from "./web/request.server";

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
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = requestInfoOf(loadContext)?.cspNonce ?? "";
  const markup = renderToString(
    <NonceProvider value={nonce}>
      <InlineStylesProvider value={inlineStylesOf(routerContext)}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineStylesProvider>
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Bytes, not a string: a string body is first checked character by character for lone surrogates (the
  // fetch standard's USVString) and then encoded, on every request, over the whole document and its inline CSS.
  return new Response(utf8.encode(`<!DOCTYPE html>${markup}`), {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

const utf8 = new TextEncoder();

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests (the client went away) are not errors of ours.
  if (request.signal.aborted) return;
  // A client's mistake (405 for a method a page does not take, 4xx we threw) is an answer, not an error.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // PostgreSQL out of reach is an outage, not a bug: the root middleware answers 503 (app/web/http-middleware.server.ts).
  const info = requestInfoOf(context as RouterContextProvider);
  if (info && isDatabaseUnavailable(error)) {
    info.databaseUnavailable = true;
    return;
  }
  getLogger().error(
    { err: error, method: request.method, path: new URL(request.url).pathname },
    "Request failed",
  );
};
