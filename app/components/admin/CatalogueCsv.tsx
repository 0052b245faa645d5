import { Button, Group, Table, Text } from "@mantine/core";
import { Form, useNavigation } from "react-router";
import { IMPORT_LIMITS_TEXT, type ImportRowError } from "~/lib/shared/catalogue-csv";

/**
 * The catalogue's CSV file on the admin products page: the export of what the
 * list shows (its search), and the import form. A plain link and a plain
 * multipart form: both work without JavaScript (the import answers a page).
 */

function exportHref(search: string): string {
  return search
    ? `/api/admin/products/export?search=${encodeURIComponent(search)}`
    : "/api/admin/products/export";
}

export function CatalogueCsvActions({ search }: { search: string }) {
  const navigation = useNavigation();
  const importing = navigation.state === "submitting" && navigation.formAction === "/admin/products/import";
  return (
    <Group gap="sm" wrap="wrap" align="flex-end" className="admin-csv">
      <Button component="a" href={exportHref(search)} variant="default" download>
        Export CSV
      </Button>
      <Form
        method="post"
        action="/admin/products/import"
        encType="multipart/form-data"
        className="admin-csv__import"
        aria-label="Catalogue import"
      >
        {search ? <input type="hidden" name="q" value={search} /> : null}
        <label className="admin-csv__file">
          <span>CSV file</span>
          <input type="file" name="my_file" accept=".csv,text/csv" required />
        </label>
        <Button type="submit" variant="default" loading={importing}>
          Import CSV
        </Button>
      </Form>
      <Text size="xs" c="dimmed" w="100%">
        {IMPORT_LIMITS_TEXT}, as Export CSV writes it. All rows or none: a file with a mistake changes
        nothing.
      </Text>
    </Group>
  );
}

/** The refused cells of an import, as the row and column a spreadsheet shows. */
export function ImportErrors({ message, errors }: { message: string; errors: ImportRowError[] }) {
  return (
    <section aria-labelledby="import-errors-title" className="admin-csv__errors" role="alert">
      <Text id="import-errors-title" fw={600} c="red" mb="xs">
        {message}
      </Text>
      {errors.length ? (
        <Table striped withTableBorder data-testid="import-errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th>Problem</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.map((error, index) => (
              <Table.Tr key={`${error.row}-${error.column}-${index}`}>
                <Table.Td>{error.row}</Table.Td>
                <Table.Td>{error.column || "—"}</Table.Td>
                <Table.Td>{error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </section>
  );
}
