import { Anchor, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { CatalogueCsvActions, ImportErrors } from "~/components/admin/CatalogueCsv";
import { isAppError } from "~/lib/server/errors.server";
import { MAX_IMPORT_BYTES, type ImportRowError } from "~/lib/shared/catalogue-csv";
import { normalizeSearch } from "~/services/admin-catalog.server";
import {
  CHOOSE_CSV_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  isImportRefused,
  reportedErrors,
} from "~/services/catalogue-import-file.server";
import { importCatalogue } from "~/services/catalogue-import.server";
import { readMultipartForm } from "~/web/uploads.server";
import { requireArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { IMPORT_BODY_LIMIT_BYTES } from "~/lib/server/body-limits.server";
import { bodyLimit } from "~/web/http-middleware.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** This route takes files: larger bodies than the 1 MB of other routes. */
export const middleware = [bodyLimit(IMPORT_BODY_LIMIT_BYTES)];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

/** The list the admin came from (its search), where a finished import returns. */
function listUrl(search: string): string {
  return search ? `/admin/products?q=${encodeURIComponent(search)}` : "/admin/products";
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireArea(request, "products");
  return data({ search: normalizeSearch(new URL(request.url).searchParams.get("q")) });
}

type ActionData = { message: string; errors: ImportRowError[]; search: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "products"), context);
  let search = "";
  try {
    const { fields, file } = await readMultipartForm(request, {
      maxBytes: MAX_IMPORT_BYTES,
      message: FILE_TOO_LARGE_MESSAGE,
    });
    search = normalizeSearch(String(fields.get("q") ?? ""));
    if (!file) return data<ActionData>({ message: CHOOSE_CSV_MESSAGE, errors: [], search }, { status: 400 });
    const { created, updated } = await importCatalogue(file.bytes, by);
    return redirectWithFlash(request, listUrl(search), {
      type: "success",
      message: `Catalogue imported: ${created} created, ${updated} updated`,
    });
  } catch (error) {
    if (isImportRefused(error))
      return data<ActionData>(
        { message: error.message, errors: reportedErrors(error.rowErrors), search },
        { status: 422 },
      );
    if (isAppError(error) && error.status < 500)
      return data<ActionData>({ message: error.message, errors: [], search }, { status: error.status });
    throw error;
  }
}

export const meta: MetaFunction = () => [{ title: "Import products · ECommerce Shopping" }];

export default function AdminProductsImport() {
  const loaded = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const search = refused?.search ?? loaded.search;
  return (
    <section className="admin-page">
      <Title order={1} size="h2" mb="md">
        Import products
      </Title>
      {refused ? <ImportErrors message={refused.message} errors={refused.errors} /> : null}
      <CatalogueCsvActions search={search} />
      <Anchor component={Link} to={listUrl(search)} mt="md" display="inline-block">
        Back to the products
      </Anchor>
    </section>
  );
}
