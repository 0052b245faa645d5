import { parse, type SubmissionResult } from "@conform-to/react";
import { Button, Group, Text, TextInput, Title } from "@mantine/core";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { ProductForm } from "~/components/admin/ProductForm";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { requireAdmin } from "~/web/auth.server";
import { isAppError } from "~/lib/server/errors.server";
import { CATEGORY_LABELS, type Category } from "~/lib/shared/catalog-options";
import { formatPrice } from "~/lib/shared/money";
import { productBadge } from "~/lib/shared/product-display";
import { redirectWithFlash } from "~/web/session.server";
import {
  createProduct,
  deleteProduct,
  getAdminProduct,
  listAdminProducts,
  normalizeSearch,
  parsePaging,
  PRODUCT_ADDED,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  updateProduct,
} from "~/services/admin-catalog.server";
import { EMPTY_PRODUCT_FORM, toProductFormValues, type ProductJson } from "~/lib/shared/product";
import {
  isMultipart,
  readMultipartForm,
  storeImage,
  UPLOAD_FIELD,
  type MultipartForm,
} from "~/services/uploads.server";
import adminStyles from "~/styles/admin.css";
import urlDialogStyles from "~/styles/url-dialog.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: urlDialogStyles },
];

/** The list's own search params (search and page): kept across panels and redirects. */
function listParams(url: URL): URLSearchParams {
  const params = new URLSearchParams();
  const q = normalizeSearch(url.searchParams.get("q"));
  const page = url.searchParams.get("page");
  if (q) params.set("q", q);
  if (page && page !== "1") params.set("page", page);
  return params;
}

function listUrl(url: URL): string {
  const params = listParams(url).toString();
  return params ? `/admin/products?${params}` : "/admin/products";
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const params = url.searchParams;
  const search = normalizeSearch(params.get("q"));
  const paging = parsePaging(params, { lenient: true });
  const { products, pagination } = await listAdminProducts({ ...paging, search });

  const editId = params.get("edit");
  const deleteId = params.get("delete");
  let editing: ProductJson | null = null;
  let deleting: ProductJson | null = null;
  try {
    if (editId) editing = await getAdminProduct(editId);
    if (deleteId) deleting = await getAdminProduct(deleteId);
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, listUrl(url), {
      type: "error",
      message: "That product does not exist any more",
    });
  }
  return json({
    products,
    pagination,
    search,
    panel: editing ? ("edit" as const) : params.get("panel") === "new" ? ("new" as const) : null,
    editing,
    deleting,
  });
}

type ActionData = { result: SubmissionResult<string[]> };

/** A failed submission: the form comes back with its values and the field errors. */
function replyWithErrors(fields: FormData, fieldErrors: Record<string, string[]>, formErrors: string[] = []) {
  const submission = parse(fields, { resolve: () => ({ error: { ...fieldErrors, "": formErrors } }) });
  return submission.reply({ fieldErrors, formErrors });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);

  if (!isMultipart(request)) {
    const formData = await request.formData();
    if (formData.get("intent") !== "delete") {
      return redirectWithFlash(request, listUrl(url), { type: "error", message: "Unknown action" });
    }
    try {
      await deleteProduct(String(formData.get("id") ?? ""));
    } catch (error) {
      if (!isAppError(error)) throw error;
      return redirectWithFlash(request, listUrl(url), { type: "error", message: error.message });
    }
    return redirectWithFlash(request, listUrl(url), { type: "success", message: PRODUCT_DELETED });
  }

  let form: MultipartForm;
  try {
    form = await readMultipartForm(request);
  } catch (error) {
    if (!isAppError(error)) throw error;
    return json<ActionData>(
      { result: replyWithErrors(new FormData(), { image: [error.message] }) },
      { status: error.status },
    );
  }
  const fields = form.fields;
  if (form.file) {
    // Without JavaScript the file travels with the form: store it first, then
    // the product refers to it (and a failed save keeps it: no second upload).
    try {
      fields.set("image", (await storeImage(form.file)).url);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return json<ActionData>(
        { result: replyWithErrors(fields, { image: [error.message] }) },
        { status: error.status },
      );
    }
  }

  const intent = fields.get("intent");
  const values = Object.fromEntries([...fields.entries()].filter(([key]) => key !== UPLOAD_FIELD));
  try {
    if (intent === "update") {
      await updateProduct(String(fields.get("id") ?? ""), values);
      return redirectWithFlash(request, listUrl(url), { type: "success", message: PRODUCT_UPDATED });
    }
    await createProduct(values);
    // A new product is the newest: it shows first on the first page.
    const search = normalizeSearch(url.searchParams.get("q"));
    return redirectWithFlash(
      request,
      search ? `/admin/products?q=${encodeURIComponent(search)}` : "/admin/products",
      {
        type: "success",
        message: PRODUCT_ADDED,
      },
    );
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.status === 404) {
      return redirectWithFlash(request, listUrl(url), { type: "error", message: error.message });
    }
    return json<ActionData>(
      { result: replyWithErrors(fields, error.fieldErrors ?? {}, error.fieldErrors ? [] : [error.message]) },
      { status: error.status },
    );
  }
}

export const meta: MetaFunction = () => [{ title: "Admin products · ECommerce Shopping" }];

function ProductCard({ product, params }: { product: ProductJson; params: URLSearchParams }) {
  const onSale = product.salePrice > 0;
  // The shop's own stock badges (out of stock, low stock): the admin sees what shoppers see.
  const badge = productBadge(product);
  const stockBadge = badge && badge.tone !== "sale" ? badge : null;
  return (
    <li className="admin-product-card" data-testid="admin-product-card">
      <img src={product.image} alt="" loading="lazy" width={300} height={300} />
      <div className="admin-product-card__body">
        <h2>{product.title}</h2>
        <p className="admin-price">
          <span className={onSale ? "admin-price--struck" : undefined}>{formatPrice(product.price)}</span>
          {onSale ? <strong>{formatPrice(product.salePrice)}</strong> : null}
        </p>
        <p className="admin-product-card__meta" data-testid="admin-product-stock">
          <span>{CATEGORY_LABELS[product.category as Category] ?? product.category}</span>
          <span>Stock: {product.totalStock}</span>
          {stockBadge ? (
            <span className={`admin-stock-badge admin-stock-badge--${stockBadge.tone}`}>
              {stockBadge.label}
            </span>
          ) : null}
        </p>
      </div>
      <div className="admin-product-card__actions">
        <Link
          to={withParams("/admin/products", params, { edit: product._id })}
          className="admin-btn admin-btn--dark"
          preventScrollReset
          aria-label={`Edit ${product.title}`}
        >
          Edit
        </Link>
        <Link
          to={withParams("/admin/products", params, { delete: product._id })}
          className="admin-btn"
          preventScrollReset
          aria-label={`Delete ${product.title}`}
        >
          Delete
        </Link>
      </div>
    </li>
  );
}

export default function AdminProducts() {
  const { products, pagination, search, panel, editing, deleting } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const current = new URLSearchParams(location.search);
  const list = new URLSearchParams();
  if (search) list.set("q", search);
  if (pagination.page > 1) list.set("page", String(pagination.page));
  const closeTo = withParams("/admin/products", list, {});
  const formAction = withParams("/admin/products", current, {});
  const deletePending = navigation.state === "submitting" && navigation.formData?.get("intent") === "delete";

  return (
    <section className="admin-page">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm" mb="md">
        <Title order={1} size="h2">
          Products
        </Title>
        <Group gap="sm" wrap="wrap">
          <Form method="get" action="/admin/products" role="search" className="admin-search">
            <TextInput
              name="q"
              type="search"
              defaultValue={search}
              placeholder="Search by title"
              aria-label="Search products by title"
              key={search}
            />
            <Button type="submit" variant="default">
              Search
            </Button>
          </Form>
          <Button
            component={Link}
            to={withParams("/admin/products", list, { panel: "new" })}
            preventScrollReset
          >
            Add New Product
          </Button>
        </Group>
      </Group>

      <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
        {pagination.total === 0
          ? search
            ? `No products match “${search}”.`
            : "No products yet."
          : `${pagination.total} product${pagination.total === 1 ? "" : "s"}${search ? ` matching “${search}”` : ""}`}
      </Text>

      <ul className="admin-product-grid">
        {products.map((product) => (
          <ProductCard key={product._id} product={product} params={list} />
        ))}
      </ul>

      <Pagination
        page={pagination.page}
        pages={pagination.pages}
        label="Product pages"
        hrefFor={(page) => withParams("/admin/products", list, { page: page === 1 ? null : page })}
      />

      {panel ? (
        <UrlDialog
          variant="drawer"
          title={panel === "new" ? "Add New Product" : "Edit Product"}
          closeTo={closeTo}
          size="md"
        >
          <ProductForm
            key={editing?._id ?? "new"}
            mode={panel}
            productId={editing?._id}
            defaultValue={editing ? toProductFormValues(editing) : EMPTY_PRODUCT_FORM}
            lastResult={actionData?.result}
            action={formAction}
          />
        </UrlDialog>
      ) : null}

      {deleting ? (
        <UrlDialog title="Delete product?" closeTo={closeTo} size="sm">
          <Text mb="md">
            Delete <strong>{deleting.title}</strong>? It leaves every cart; past orders keep their copy of it.
          </Text>
          <Form method="post" action={withParams("/admin/products", list, {})}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={deleting._id} />
            <Group justify="flex-end" gap="sm">
              <Button component={Link} to={closeTo} variant="default" preventScrollReset>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={deletePending}>
                Delete
              </Button>
            </Group>
          </Form>
        </UrlDialog>
      ) : null}
    </section>
  );
}
