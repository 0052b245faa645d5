import { Button, Group, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { AdminTable, adminPageLinks } from "~/components/admin/AdminRecordsPage";
import { Pagination } from "~/components/admin/Pagination";
import { utcText } from "~/lib/shared/admin-form";
import { parsePagingLeniently } from "~/lib/shared/paging";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";
import { readForm } from "~/lib/server/request-body.server";
import {
  CUSTOMER_PAGING,
  eraseCustomer,
  PRIVACY_TEXT,
  searchCustomers,
} from "~/services/privacy/privacy.server";
import { auditByOf } from "~/web/audit.server";
import { requireArea } from "~/web/auth.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => adminPageLinks;

const PAGE = "/admin/customers";
const ERASE_INTENT = "erase";

/**
 * Customers (API.md, "Privacy: export and erasure"): shoppers found by name or email, a page at a time,
 * each with a download of their data and an erasure for requests that come by mail. The erasure's
 * confirmation is a URL (`?erase=ID`), so the page needs no script (docs/decisions/0003, 0038); both are on
 * the audit log.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "customers");
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 200);
  const found = await searchCustomers(q, parsePagingLeniently(params, CUSTOMER_PAGING));
  const erasing = params.get("erase");
  return { ...found, q, erasing: found.data.find((row) => row._id === erasing) ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireArea(request, "customers");
  const form = await readForm(request);
  const back = `${PAGE}${new URL(request.url).search.replace(/([?&])erase=[^&]*&?/, "$1").replace(/[?&]$/, "")}`;
  if (form.get("intent") !== ERASE_INTENT) {
    return redirectWithFlash(request, back, { type: "error", message: "Unknown action" });
  }
  return runOrRefuse(
    async () => {
      await eraseCustomer(String(form.get("id") ?? ""), auditByOf(user, context));
      return redirectWithFlash(request, back, { type: "success", message: PRIVACY_TEXT.erased });
    },
    (error) => redirectWithFlash(request, back, { type: "error", message: error.message }),
  );
}

export const meta: MetaFunction = () => [{ title: "Customers · ECommerce Shopping" }];

function hrefWith(q: string, extra: Record<string, string>): string {
  const params = new URLSearchParams({ ...(q ? { q } : {}), ...extra });
  const search = params.toString();
  return search ? `${PAGE}?${search}` : PAGE;
}

export default function AdminCustomers() {
  const { data: rows, pagination, q, erasing } = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="xs">
          Customers
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          For requests about a shopper&apos;s data that arrive by mail: download everything the shop holds
          about them (their guest orders under the same email included), or erase it by the rules of deleting
          their own account. Both are on the audit log.
        </Text>
        <Form method="get" action={PAGE} role="search" className="admin-search">
          <Group gap="xs" mb="sm">
            <TextInput
              name="q"
              type="search"
              defaultValue={q}
              key={q}
              maxLength={200}
              placeholder="Name or email"
              aria-label="Find shoppers by name or email"
            />
            <Button type="submit" variant="default">
              Find
            </Button>
          </Group>
        </Form>
        {erasing ? (
          <div
            className="admin-card"
            data-testid="erase-confirmation"
            role="alertdialog"
            aria-labelledby="erase-title"
          >
            <Title order={2} size="h4" id="erase-title" mb="xs">
              Erase {erasing.userName} ({erasing.email})?
            </Title>
            <Text size="sm" mb="sm">
              Their name, email, addresses, cart, wishlist, alerts and consents go for good; orders stay
              without them. Refused while an order or a return is in progress.
            </Text>
            <Form method="post" action={hrefWith(q, { page: String(pagination.page) })}>
              <input type="hidden" name="intent" value={ERASE_INTENT} />
              <input type="hidden" name="id" value={erasing._id} />
              <Group gap="xs">
                <Button type="submit" color="red">
                  Erase for good
                </Button>
                <a className="admin-btn" href={hrefWith(q, { page: String(pagination.page) })}>
                  Cancel
                </a>
              </Group>
            </Form>
          </div>
        ) : null}
        <AdminTable
          testId="customer-table"
          rows={rows}
          rowTestId={() => "customer-row"}
          empty={q ? "No shopper matches." : "No shoppers yet."}
          columns={[
            { header: "Name", cell: (row) => row.userName },
            // Beside the name: on a phone the table scrolls sideways, and the actions stay in view.
            {
              header: "Data",
              cell: (row) => (
                <Group gap="xs" wrap="nowrap">
                  <a className="admin-btn" href={`/admin/customers/${row._id}/export`} download>
                    Download
                  </a>
                  <a
                    className="admin-btn"
                    href={hrefWith(q, { page: String(pagination.page), erase: row._id })}
                    aria-label={`Erase ${row.userName}`}
                  >
                    Erase
                  </a>
                </Group>
              ),
            },
            { header: "Email", cell: (row) => row.email, style: { overflowWrap: "anywhere" } },
            { header: "Orders", cell: (row) => row.orders },
            { header: "Since", cell: (row) => utcText(row.createdAt) },
          ]}
        />
        <Pagination
          page={pagination.page}
          pages={pagination.pages}
          hrefFor={(page) => hrefWith(q, { page: String(page) })}
          label="Pages of shoppers"
        />
      </div>
    </section>
  );
}
