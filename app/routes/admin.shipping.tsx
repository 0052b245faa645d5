import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { ActiveBadge, AdminRecordsPage, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { ShippingMethodFields, shippingFormValues } from "~/components/admin/ShippingMethodForm";
import type { AdminShippingMethodJson } from "~/lib/shared/delivery-schemas";
import { formatPrice } from "~/lib/shared/money";
import {
  createShippingMethod,
  deleteShippingMethod,
  getShippingMethod,
  listShippingMethods,
  SHIPPING_TEXT,
  updateShippingMethod,
} from "~/services/shipping.server";
import { openedRecords, recordAction, type AdminRecords } from "~/web/admin-form.server";
import { requireArea } from "~/web/auth.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/shipping";

const shippingMethods: AdminRecords<AdminShippingMethodJson> = {
  page: PAGE,
  text: SHIPPING_TEXT,
  /** The form as the service reads it: an unticked box sends nothing, which here means "inactive". */
  inputOf: (sent) => ({
    ...sent.texts([
      "name",
      "price",
      "estimatedDaysMin",
      "estimatedDaysMax",
      "estimatedText",
      "freeOver",
      "position",
    ]),
    active: sent.box("active"),
  }),
  get: getShippingMethod,
  create: createShippingMethod,
  update: updateShippingMethod,
  remove: deleteShippingMethod,
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "shipping");
  const opened = await openedRecords(request, shippingMethods);
  return data({ methods: await listShippingMethods(), ...opened });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return recordAction({ request, context }, await requireArea(request, "shipping"), shippingMethods);
}

export const meta: MetaFunction = () => [{ title: "Delivery options · ECommerce Shopping" }];

export default function AdminShipping() {
  const { methods, editing, adding } = useLoaderData<typeof loader>();
  return (
    <AdminRecordsPage
      page={PAGE}
      title="Delivery options"
      noun="delivery option"
      intro="Shoppers see the active options, cheapest first; the cheapest is chosen for them. Above “free over” (the subtotal after any discount) an option costs nothing. With no active option, delivery is free."
      tableTestId="shipping-table"
      rows={methods}
      empty="No delivery options: delivery is free."
      rowName={(method) => method.name}
      columns={[
        { header: "Name", cell: (method) => method.name },
        { header: "Price", cell: (method) => formatPrice(method.price) },
        { header: "Estimated", cell: (method) => method.estimatedDays || "—" },
        {
          header: "Free over",
          cell: (method) => (method.freeOver === null ? "—" : formatPrice(method.freeOver)),
        },
        { header: "Position", cell: (method) => method.position },
        { header: "Status", cell: (method) => <ActiveBadge active={method.active} /> },
      ]}
      formPrefix="shipping"
      formValues={shippingFormValues}
      fields={ShippingMethodFields}
      adding={adding}
      editing={editing}
    />
  );
}
