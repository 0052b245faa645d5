import { Badge, Group, Table, Text, Title } from "@mantine/core";
import type { CSSProperties, ReactNode } from "react";
import { Link, useActionData, type LinkDescriptor } from "react-router";
import { formFields, RECORD_INTENTS, type AdminFormReply, type SentValues } from "~/lib/shared/admin-form";
import { AdminRecordForm, type RecordFormFields } from "./AdminRecordForm";
import { RowActions } from "./RowActions";
import adminStyles from "~/styles/admin.css?url";

/** The stylesheet of every admin page, for a route's `links`. */
export const adminPageLinks: LinkDescriptor[] = [{ rel: "stylesheet", href: adminStyles }];

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  style?: CSSProperties;
}

interface AdminTableProps<Row extends { _id: string }> {
  testId: string;
  columns: Column<Row>[];
  rows: Row[];
  /** The table's one line when it has no row. */
  empty: string;
  rowTestId?: (row: Row) => string;
}

/** A row that is on or off (a delivery option, a discount code), in a light badge. */
export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? "green" : "gray"} variant="light">
      {active ? "Active" : "Inactive"}
    </Badge>
  );
}

/** An admin list: a striped table that scrolls sideways on a phone, one line when empty. */
export function AdminTable<Row extends { _id: string }>({
  testId,
  columns,
  rows,
  empty,
  rowTestId,
}: AdminTableProps<Row>) {
  return (
    <div className="variant-table__scroll">
      <Table striped withTableBorder data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{empty}</Table.Td>
            </Table.Tr>
          ) : (
            rows.map((row) => (
              <Table.Tr key={row._id} data-testid={rowTestId?.(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.header} style={column.style}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}

interface AdminRecordsPageProps<Row extends { _id: string; version?: number }> {
  /** The page's URL: the forms post to it, `?panel=new` and `?edit=ID` open its forms. */
  page: string;
  title: string;
  /** What one row is, in words ("tax rate"): "Add tax rate", "Edit tax rate". */
  noun: string;
  /** The header link's words, when not "Add <noun>". */
  addLabel?: string;
  intro: ReactNode;
  introTestId?: string;
  tableTestId: string;
  columns: Column<Row>[];
  rows: Row[];
  /** The list's one line when it has no row. */
  empty: string;
  /** How a row is named: the edit form's title and its actions' labels ("Edit NY State"). */
  rowName: (row: Row) => string;
  rowTestId?: (row: Row) => string;
  /** Links shown before a row's Edit and Delete (a webhook's deliveries). */
  rowLinks?: (row: Row) => ReactNode;
  /** False when rows are never deleted: no Delete button (a gift card is disabled instead). */
  deletable?: boolean;
  /** Shown between the intro and the table (a search form). */
  filter?: ReactNode;
  /** The forms' id prefix ("tax": "tax-new-name", "tax-ID-name"). */
  formPrefix: string;
  /** A row as its form's values (null: a new one's defaults). */
  formValues: (row: Row | null) => SentValues;
  fields: (form: RecordFormFields) => ReactNode;
  /** The loader's `adding` and `editing` (app/web/admin-form.server.ts, openedRecords). */
  adding: boolean;
  editing: Row | null;
  /** Shown below the forms (a webhook's deliveries). */
  children?: ReactNode;
}

/**
 * An admin list-and-form page (docs/decisions/0038): the list in a table with
 * each row's Edit link and Delete button, and the add and edit forms as
 * cards that the URL opens (`?panel=new`, `?edit=ID`), so the server renders
 * them open without JavaScript. A refused form stays open with what was
 * sent, whatever the URL says.
 */
export function AdminRecordsPage<Row extends { _id: string; version?: number }>(
  props: AdminRecordsPageProps<Row>,
) {
  const { page, noun, columns, rows, rowName, editing } = props;
  const reply = useActionData() as AdminFormReply | undefined;
  const formCard = (title: string, id: string | undefined, stored: SentValues) => {
    const sent = reply?.form === (id ?? "new") ? reply : undefined;
    const values = sent?.values ?? stored;
    const errors = sent?.errors ?? {};
    return (
      <div className="admin-card">
        <Title order={2} size="h4" mb="sm">
          {title}
        </Title>
        <AdminRecordForm
          key={sent ? JSON.stringify(sent.values) : (id ?? "new")}
          noun={noun}
          intent={id ? RECORD_INTENTS.update : RECORD_INTENTS.create}
          id={id}
          values={values}
          message={sent?.message}
          stale={sent?.stale}
          cancelTo={page}
        >
          {props.fields({ field: formFields(`${props.formPrefix}-${id ?? "new"}`, values, errors) })}
        </AdminRecordForm>
      </div>
    );
  };

  return (
    <section className="admin-page">
      <div className="admin-card">
        <Group justify="space-between" mb="md">
          <Title order={1} size="h3">
            {props.title}
          </Title>
          <Link to={`${page}?panel=new`} className="admin-btn admin-btn--dark">
            {props.addLabel ?? `Add ${noun}`}
          </Link>
        </Group>
        <Text size="sm" c="dimmed" mb="sm" data-testid={props.introTestId}>
          {props.intro}
        </Text>
        {props.filter}
        <AdminTable
          testId={props.tableTestId}
          rows={rows}
          empty={props.empty}
          rowTestId={props.rowTestId}
          columns={[
            ...columns,
            {
              header: "Actions",
              cell: (row) => (
                <RowActions
                  page={page}
                  id={row._id}
                  name={rowName(row)}
                  version={row.version}
                  before={props.rowLinks?.(row)}
                  deletable={props.deletable}
                />
              ),
            },
          ]}
        />
      </div>
      {props.adding || reply?.form === "new"
        ? formCard(`Add ${noun}`, undefined, props.formValues(null))
        : null}
      {editing ? formCard(`Edit ${rowName(editing)}`, editing._id, props.formValues(editing)) : null}
      {props.children}
    </section>
  );
}
