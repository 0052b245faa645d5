import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { ActiveBadge, AdminRecordsPage, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { DiscountCodeFields, discountFormValues } from "~/components/admin/DiscountCodeEditor";
import { utcFromLocalInput, utcText } from "~/lib/shared/admin-form";
import { BRAND_LABELS, CATEGORY_LABELS, type Brand, type Category } from "~/lib/shared/catalog-options";
import type { DiscountCodeJson } from "~/lib/shared/delivery-schemas";
import { formatPrice } from "~/lib/shared/money";
import {
  createDiscountCode,
  deleteDiscountCode,
  getDiscountCode,
  listDiscountCodes,
  updateDiscountCode,
} from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";
import { openedRecords, recordAction, type AdminRecords } from "~/web/admin-form.server";
import { requireArea } from "~/web/auth.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/discounts";

const discountCodes: AdminRecords<DiscountCodeJson> = {
  page: PAGE,
  text: DISCOUNT_TEXT,
  repeated: ["categories", "brands"],
  /**
   * The form as the service reads it. Its dates are UTC (the inputs say so);
   * an unticked "active" sends nothing, which here means "inactive"; no ticked
   * category or brand means "all".
   */
  inputOf: (sent) => {
    const { startsAt, endsAt, ...rest } = sent.texts([
      "code",
      "type",
      "value",
      "minSubtotal",
      "startsAt",
      "endsAt",
      "usageLimit",
      "perCustomerLimit",
    ]);
    return {
      ...rest,
      startsAt: utcFromLocalInput(startsAt),
      endsAt: utcFromLocalInput(endsAt),
      categories: sent.list("categories"),
      brands: sent.list("brands"),
      active: sent.box("active"),
    };
  },
  get: getDiscountCode,
  create: createDiscountCode,
  update: updateDiscountCode,
  remove: deleteDiscountCode,
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "discounts");
  const opened = await openedRecords(request, discountCodes);
  return data({ codes: await listDiscountCodes(), ...opened });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return recordAction({ request, context }, await requireArea(request, "discounts"), discountCodes);
}

export const meta: MetaFunction = () => [{ title: "Discount codes · ECommerce Shopping" }];

function valueText(code: DiscountCodeJson): string {
  return code.type === "percent" ? `${code.value} %` : formatPrice(code.value);
}

function appliesTo(code: DiscountCodeJson): string {
  const parts = [
    ...code.categories.map((category) => CATEGORY_LABELS[category as Category] ?? category),
    ...code.brands.map((brand) => BRAND_LABELS[brand as Brand] ?? brand),
  ];
  return parts.length ? parts.join(", ") : "Everything";
}

function validText(code: DiscountCodeJson): string {
  if (!code.startsAt && !code.endsAt) return "Always";
  return `${code.startsAt ? utcText(code.startsAt) : "now"} to ${code.endsAt ? utcText(code.endsAt) : "no end"}`;
}

export default function AdminDiscounts() {
  const { codes, editing, adding } = useLoaderData<typeof loader>();
  return (
    <AdminRecordsPage
      page={PAGE}
      title="Discount codes"
      noun="discount code"
      intro="Dates are shown and entered in UTC. A use is counted when an order with the code is paid."
      tableTestId="discount-table"
      rows={codes}
      empty="No discount codes yet."
      rowName={(code) => code.code}
      rowTestId={(code) => `discount-row-${code.code}`}
      columns={[
        { header: "Code", cell: (code) => code.code },
        { header: "Off", cell: valueText },
        { header: "Minimum", cell: (code) => (code.minSubtotal > 0 ? formatPrice(code.minSubtotal) : "—") },
        { header: "Valid (UTC)", cell: validText },
        { header: "Uses / limit", cell: (code) => `${code.uses} / ${code.usageLimit ?? "no limit"}` },
        { header: "Per customer", cell: (code) => code.perCustomerLimit ?? "no limit" },
        { header: "Applies to", cell: appliesTo },
        { header: "Status", cell: (code) => <ActiveBadge active={code.active} /> },
      ]}
      formPrefix="discount"
      formValues={discountFormValues}
      fields={DiscountCodeFields}
      adding={adding}
      editing={editing}
    />
  );
}
