import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { AddressManager, addressManagerLinks } from "~/components/AddressManager";
import { handleAddressAction, loadAddressManager } from "~/web/address-actions.server";
import { requireShopper } from "~/web/auth.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** The shopper's addresses on a page of their own (the same manager shows on checkout and in the account). */

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  return data(await loadAddressManager(request, user));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const formData = await readForm(request);
  return handleAddressAction(request, user, formData, "/shop/addresses");
}

export const links: LinksFunction = () => addressManagerLinks;

export const meta: MetaFunction = () => [{ title: "Addresses · ECommerce Shopping" }];

export default function AddressesPage() {
  const { addresses, editing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    // Plain HTML like the address manager: no Mantine in the page's JavaScript (docs/decisions/0008).
    <div className="sf-stack addresses-page">
      <div>
        <h1 className="addresses-page__title">Addresses</h1>
        <p className="address-empty">Where your orders go. You can keep up to 3 addresses.</p>
      </div>
      <AddressManager
        addresses={addresses}
        editing={editing}
        lastResult={actionData && "addressForm" in actionData ? actionData.addressForm : null}
      />
    </div>
  );
}
