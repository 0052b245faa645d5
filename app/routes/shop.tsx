import { json, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { ShopHeader } from "~/components/ShopHeader";
import { requireShopper } from "~/lib/auth.server";
import { countCartItems } from "~/services/cart.server";
import storefrontStyles from "~/styles/storefront.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: storefrontStyles }];

/** The shop shell. Each child route checks the shopper itself. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  return json({ user: { userName: user.userName }, cartCount: await countCartItems(user.id) });
}

export default function ShopLayout() {
  const { user, cartCount } = useLoaderData<typeof loader>();
  return (
    <div className="shop-layout">
      <ShopHeader user={user} cartCount={cartCount} />
      <main className="shop-main">
        <Outlet />
      </main>
    </div>
  );
}
