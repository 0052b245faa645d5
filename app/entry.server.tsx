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
      <InlineStylesProvider value={INLINE_STYLES_MARK}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineStylesProvider>
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(documentBytes(markup, inlineStylesOf(routerContext)), {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}

/**
 * Where the inline `<style>` gets its CSS. React escapes `<` in every text and attribute, so only markup set as
 * HTML can hold this; the first one in the document is the style element's, the head's one piece of such markup.
 */
const INLINE_STYLES_MARK = "<!--inline-styles-->";

const utf8 = new TextEncoder();

/**
 * The document as UTF-8 bytes, with the page's CSS (encoded once per list of stylesheets) in place of the mark:
 * only the markup is encoded per request. Bytes, not a string: a string body is also checked character by
 * character for lone surrogates (the fetch standard's USVString) before it is encoded.
 */
function documentBytes(markup: string, css: Uint8Array): Uint8Array<ArrayBuffer> {
  const at = markup.indexOf(INLINE_STYLES_MARK);
  if (at < 0) return utf8.encode(`<!DOCTYPE html>${markup}`);
  const head = utf8.encode(`<!DOCTYPE html>${markup.slice(0, at)}`);
  const rest = utf8.encode(markup.slice(at + INLINE_STYLES_MARK.length));
  const bytes = new Uint8Array(head.length + css.length + rest.length);
  bytes.set(head);
  bytes.set(css, head.length);
  bytes.set(rest, head.length + css.length);
  return bytes;
}

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
