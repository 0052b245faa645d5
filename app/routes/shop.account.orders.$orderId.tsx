import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { OrderDetails } from "~/components/OrderDetails";
import { requireShopper } from "~/lib/auth.server";
import { isAppError } from "~/lib/errors.server";
import { redirectWithFlash } from "~/lib/session.server";
import { getOrderForUser } from "~/services/orders.server";
import urlDialogStyles from "~/styles/url-dialog.css";

/**
 * One order of the shopper's history in the details dialog (SPEC §2 Account:
 * the admin's details view; the shipping info shows the signed-in shopper's
 * name). A URL, so the server renders it open without JavaScript. Somebody
 * else's order is as unknown as a made-up id.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: urlDialogStyles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  try {
    const order = await getOrderForUser(user.id, params.orderId ?? "");
    return json({ order, customerName: user.userName });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, "/shop/account", { type: "error", message: error.message });
  }
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AccountOrderDetails() {
  const { order, customerName } = useLoaderData<typeof loader>();
  return (
    <UrlDialog title="Order Details" closeTo="/shop/account" size="lg">
      <OrderDetails order={order} customerName={customerName} />
    </UrlDialog>
  );
}
