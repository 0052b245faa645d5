import { data, type LoaderFunctionArgs, type MetaFunction, useLoaderData } from "react-router";
import { shopperOrVisitor } from "~/web/auth.server";
import { getConfig } from "~/lib/server/config.server";
import { findShopPage, paragraphsOf } from "~/lib/server/shop-pages.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** Shipping & returns, Privacy, Contact: plain server-rendered text from app/lib/server/shop-pages.server.ts. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await shopperOrVisitor(request);
  const page = findShopPage(params.slug);
  if (!page) throw new Response("Not Found", { status: 404 });
  const facts = { returnWindowDays: getConfig().returnWindowDays };
  return data({ page: { slug: page.slug, title: page.title, paragraphs: paragraphsOf(page, facts) } });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.title ?? "Page not found"} · ECommerce Shopping` },
];

export default function ShopInfoPage() {
  const { page } = useLoaderData<typeof loader>();
  return (
    <article className="info-page">
      <h1 className="page-heading">{page.title}</h1>
      {page.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </article>
  );
}

/** An unknown page: the 404 text inside the shop's layout. */
export function ErrorBoundary() {
  return (
    <section className="status-page">
      <h1>Page not found</h1>
      <p>page doesn&apos;t exists</p>
    </section>
  );
}
