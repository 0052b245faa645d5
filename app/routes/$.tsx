import type { MetaFunction } from "@remix-run/node";

/** Any path that no route claims. */
export async function loader() {
  throw new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction = () => [{ title: "Page not found · ECommerce Shopping" }];

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return (
    <main className="status-page">
      <h1>Page not found</h1>
      <p>page doesn&apos;t exists</p>
      <a href="/">Go to the start page</a>
    </main>
  );
}
