import { Scripts } from "react-router";
import { useContext } from "react";
import { createAppContext } from "./app-contexts";

/**
 * The text of the small script that starts the page's scripts once its main picture has painted
 * (`app/lib/server/page-scripts.server.ts`), given by the server as the inline CSS is, so that none of it ships in
 * the browser's bundle. Empty in the browser: the elements keep what the server wrote.
 */
const PageScriptsStarterContext = createAppContext<string>("");
export const PageScriptsStarterProvider = PageScriptsStarterContext.Provider;

/** The attribute of the `<template>` that holds React Router's `<Scripts>` until the main picture has painted. */
export const PAGE_SCRIPTS_ATTRIBUTE = "data-page-scripts";

/**
 * React Router's own `<Scripts>`, written by the server inside an inert `<template>`, then a small inline script of
 * ours (docs/decisions/0041). The browser neither fetches nor runs what a template holds, so the document's
 * first requests are its main picture and the other first-screen pictures; the starter runs the template's
 * inline data script at once (the router's data, which the document's later inline scripts feed), and the
 * module preloads and the module script, which fetch and hydrate, once the page's `fetchpriority="high"`
 * picture has loaded and a frame has painted it (at once when there is none; after a few seconds at most).
 *
 * In the browser React renders the template empty and does not look inside it (`dangerouslySetInnerHTML`), and
 * the starter has put the scripts at the end of the body, which React leaves alone, before React runs.
 */
export function PageScripts({ nonce }: { nonce: string }) {
  const starter = useContext(PageScriptsStarterContext);
  const props = { [PAGE_SCRIPTS_ATTRIBUTE]: "" };
  return (
    <>
      {starter ? (
        <template {...props}>
          <Scripts nonce={nonce} />
        </template>
      ) : (
        <template {...props} dangerouslySetInnerHTML={{ __html: "" }} suppressHydrationWarning />
      )}
      <script
        nonce={nonce || undefined}
        dangerouslySetInnerHTML={{ __html: starter }}
        suppressHydrationWarning
      />
    </>
  );
}
