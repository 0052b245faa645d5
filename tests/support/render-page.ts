import { JSDOM } from "jsdom";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import {
  type ActionFunction,
  type LoaderFunction,
  Outlet,
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router";
import * as shopLayout from "../../app/routes/shop";
import { buildRequest, testRequestContext } from "./requests";

/**
 * Renders a shop page's own markup on the server, the way a browser without
 * JavaScript receives it: the real loaders of the shop layout and the page run
 * against the test database, and the page's component renders with their data
 * (the layout's header and the root's document are left out).
 */
export async function renderShopPage(
  pathAndQuery: string,
  page: { loader: LoaderFunction; default: ComponentType },
  cookie: string,
  /** The page's route path under /shop, such as "product/:id"; by default the URL's own path. */
  routePath?: string,
): Promise<Document> {
  return (await renderShop(pathAndQuery, page, cookie, routePath)).document;
}

/**
 * The page as a browser without JavaScript receives it after posting `form` to the page's action and being
 * answered with the page itself (a refusal): the action runs, then the loaders, and the component renders
 * with both; `status` is the answer's.
 */
export function renderShopPageAfterPost(
  pathAndQuery: string,
  page: { loader: LoaderFunction; action: ActionFunction; default: ComponentType },
  cookie: string,
  routePath: string,
  form: Record<string, string>,
): Promise<{ document: Document; status: number }> {
  return renderShop(pathAndQuery, page, cookie, routePath, form);
}

async function renderShop(
  pathAndQuery: string,
  page: { loader: LoaderFunction; action?: ActionFunction; default: ComponentType },
  cookie: string,
  routePath?: string,
  form?: Record<string, string>,
): Promise<{ document: Document; status: number }> {
  const pagePath =
    routePath ?? new URL(pathAndQuery, "http://local.invalid").pathname.replace(/^\/shop\//, "");
  const routes = [
    {
      id: "routes/shop",
      path: "/shop",
      loader: shopLayout.loader as never,
      element: createElement(Outlet),
      children: [
        {
          id: "page",
          path: pagePath,
          loader: page.loader as never,
          action: page.action as never,
          Component: page.default,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(buildRequest(pathAndQuery, { cookie, form }), {
    requestContext: testRequestContext(),
  });
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  if (context.errors) throw new Error(`the page failed: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  return { document: new JSDOM(html).window.document, status: context.statusCode };
}
