import { Button, NativeSelect, Table, Text, TextInput, Title } from "@mantine/core";
import {
  data,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useLoaderData,
} from "react-router";
import { AuditChanges } from "~/components/admin/AuditHistory";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { AUDIT_ACTIONS, AUDIT_ENTITIES, auditTimeText } from "~/lib/shared/audit";
import { requireArea } from "~/web/auth.server";
import { listAudit, parseAuditQueryLeniently } from "~/services/audit.server";
import adminStyles from "~/styles/admin.css?url";
import auditStyles from "~/styles/audit.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: auditStyles },
];

/** The filters that the URL keeps (and the paging links carry). */
const FILTER_KEYS = ["entity", "entityId", "action", "actor", "from", "to"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "audit");
  const query = parseAuditQueryLeniently(new URL(request.url).searchParams);
  const { entries, pagination } = await listAudit(query);
  const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, query[key] ?? ""])) as Record<
    (typeof FILTER_KEYS)[number],
    string
  >;
  return data({ entries, pagination, filters });
}

export const meta: MetaFunction = () => [{ title: "Audit log · ECommerce Shopping" }];

export default function AdminAudit() {
  const { entries, pagination, filters } = useLoaderData<typeof loader>();
  const list = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) list.set(key, filters[key]);
  // A new key per filter set: the inputs show the URL's values after every search, with or without JavaScript.
  const formKey = list.toString();

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="md">
          Audit log
        </Title>
        <Form method="get" action="/admin/audit" className="audit-filters" key={formKey}>
          <NativeSelect
            name="entity"
            label="What"
            defaultValue={filters.entity}
            data={[
              { value: "", label: "Everything" },
              ...AUDIT_ENTITIES.map((value) => ({ value, label: value })),
            ]}
          />
          <NativeSelect
            name="action"
            label="Action"
            defaultValue={filters.action}
            data={[
              { value: "", label: "Any action" },
              ...AUDIT_ACTIONS.map((value) => ({ value, label: value })),
            ]}
          />
          <TextInput name="actor" label="Who" defaultValue={filters.actor} placeholder="Name" />
          <TextInput name="from" label="From" type="date" defaultValue={filters.from} />
          <TextInput name="to" label="To" type="date" defaultValue={filters.to} />
          {filters.entityId ? <input type="hidden" name="entityId" value={filters.entityId} /> : null}
          <Button type="submit" variant="default">
            Filter
          </Button>
        </Form>
        <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
          {pagination.total} change{pagination.total === 1 ? "" : "s"} on record
          {filters.entityId ? ` for ${filters.entity || "id"} ${filters.entityId}` : ""}
        </Text>
        <div className="audit-table-wrap">
          <Table striped withTableBorder data-testid="audit-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Changes</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>No changes match.</Table.Td>
                </Table.Tr>
              ) : (
                entries.map((entry) => (
                  <Table.Tr key={entry._id}>
                    <Table.Td>
                      <time dateTime={entry.at}>{auditTimeText(entry.at)}</time>
                    </Table.Td>
                    <Table.Td>{entry.actor.userName}</Table.Td>
                    <Table.Td>{entry.action}</Table.Td>
                    <Table.Td>
                      <a
                        href={withParams("/admin/audit", new URLSearchParams(), {
                          entity: entry.entity,
                          entityId: entry.entityId,
                        })}
                      >
                        {entry.entity} {entry.entityId.slice(0, 8)}
                      </a>
                    </Table.Td>
                    <Table.Td>
                      <AuditChanges changes={entry.changes} />
                    </Table.Td>
                    <Table.Td>{entry.ip ?? "—"}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </div>
        <Pagination
          page={pagination.page}
          pages={pagination.pages}
          label="Audit log pages"
          hrefFor={(page) => withParams("/admin/audit", list, { page: page === 1 ? null : page })}
        />
      </div>
    </section>
  );
}
