import { createElement, useContext, type ComponentType, type ReactElement } from "react";
import { createAppContext } from "./app-contexts";

/**
 * The HTML of `<component {...props} />`, rendered once and kept under a key derived from the component and its
 * whole props (lib/server/server-markup.server.ts). Given by the server's render only (entry.server.tsx).
 */
export type KeptMarkup = <P extends object>(component: ComponentType<P>, props: P) => string;

const ServerMarkupContext = createAppContext<KeptMarkup | null>(null);
export const ServerMarkupProvider = ServerMarkupContext.Provider;

/** The props of `P` that are functions: the handlers a kept component gets in the browser only. */
export type BrowserOnlyProps<P> = {
  [K in keyof P as NonNullable<P[K]> extends (...args: never[]) => unknown ? K : never]?: P[K];
};

/** What the element around a kept component spreads: its kept HTML on the server, the component in the browser. */
export type KeptContent = { dangerouslySetInnerHTML: { __html: string } } | { children: ReactElement };

/**
 * Renders a component whose markup depends on its props alone (no context, no router hook, no `useId`) as the
 * content of the element around it: `<div {...kept(Cards, props)} />`. On the server its HTML is kept under the
 * component and every prop (functions are refused there); in the browser the component renders as usual,
 * hydrating over the same markup, with `browserOnly`'s handlers too, which React never writes into markup. Call
 * it after the component's own hooks: React renders the kept component then and there, and a render within a
 * render leaves the caller no hooks to call (docs/decisions/0036, 0039).
 */
export type Kept = <P extends object>(
  component: ComponentType<P>,
  props: P,
  browserOnly?: BrowserOnlyProps<P>,
) => KeptContent;

const browserKept: Kept = (component, props, browserOnly) => ({
  children: createElement(component, { ...props, ...browserOnly }),
});

/** The renderer of kept components: the server's kept markup, or in the browser the components themselves. */
export function useKept(): Kept {
  const keptMarkup = useContext(ServerMarkupContext);
  if (!keptMarkup) return browserKept;
  return (component, props) => ({ dangerouslySetInnerHTML: { __html: keptMarkup(component, props) } });
}
