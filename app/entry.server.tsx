import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { isDatabaseUnavailable } from "./lib/server/errors.server";
import { inlineStylesOf } from "./lib/server/inline-styles.server";
import { getLogger } from "./lib/server/logger.server";
import { InlineStylesProvider } from "./lib/shared/inline-styles";
import { NonceProvider } from "./lib/shared/nonce";
import { PageScriptsStarterProvider } from "./lib/shared/page-scripts";
import { PAGE_SCRIPTS_STARTER } from "./lib/server/page-scripts.server";
import { requestInfoOf } from "./web/request.server";
import { cachedStylesheetsOf, rememberedStylesheetsCookie } from "./web/cached-styles.server";
import { getConfig } from "./lib/server/config.server";
import { ServerMarkupProvider } from "./lib/shared/server-markup";
import { keptMarkup } from "./lib/server/server-markup.server";
import { renderWithin } from "./lib/server/render-deadline.server";

/** How long a render may take before it is aborted (React Router reads this export). */
export const streamTimeout = 10_000;

/**
 * The document, rendered whole before it is sent (onAllReady): no loader defers data and no component
 * suspends, so waiting costs nothing, and crawlers and no-JS clients get the whole document at once, as
 * everybody does. React Router hands the page's data to the browser through a stream that React renders
 * inside the document (`<ServerRouter>`), so the render is a stream, collected here into one body.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = requestInfoOf(loadContext)?.cspNonce ?? "";
  const styles = inlineStylesOf(routerContext, cachedStylesheetsOf(request));
  let abort = () => {};
  const rendered = new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const { pipe, abort: abortRender } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <InlineStylesProvider value={{ markup: INLINE_STYLES_MARK, hrefsSentAsText: styles.hrefsSentAsText }}>
          <ServerMarkupProvider value={keptMarkup}>
            <PageScriptsStarterProvider value={PAGE_SCRIPTS_STARTER}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </PageScriptsStarterProvider>
          </ServerMarkupProvider>
        </InlineStylesProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = [];
          const body = new PassThrough();
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            const remembered = rememberedStylesheetsCookie(styles.sentAsText, request, secureCookies());
            if (remembered) responseHeaders.append("Set-Cookie", remembered);
            resolve(
              new Response(documentBytes(Buffer.concat(chunks), styles.css), {
                headers: responseHeaders,
                status,
              }),
            );
          });
          body.on("error", reject);
          pipe(body);
        },
        onShellError: reject,
        onError(error: unknown) {
          status = 500;
          getLogger().error({ err: error }, "Rendering the page failed");
        },
      },
    );
    abort = abortRender;
  });
  return renderWithin(streamTimeout + 1000, rendered, () => abort());
}

/**
 * Where the inline `<style>` gets its CSS. React escapes `<` in every text and attribute, so only markup set as
 * HTML can hold this; the first one in the document is the style element's, the head's one piece of such markup.
 */
const INLINE_STYLES_MARK = "<!--inline-styles-->";

/**
 * The document's bytes with the page's CSS (encoded once per list of stylesheets) in place of the mark: only
 * the markup is encoded per request.
 */
function documentBytes(document: Buffer, css: Uint8Array): Uint8Array<ArrayBuffer> {
  const at = document.indexOf(INLINE_STYLES_MARK);
  const rest = at < 0 ? document.length : at + INLINE_STYLES_MARK.length;
  const head = at < 0 ? document.length : at;
  const bytes = new Uint8Array(head + (at < 0 ? 0 : css.length) + (document.length - rest));
  bytes.set(document.subarray(0, head));
  if (at >= 0) bytes.set(css, head);
  bytes.set(document.subarray(rest), bytes.length - (document.length - rest));
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

const secureCookies = () => getConfig().secureCookies;
