import { readForm } from "~/lib/server/request-body.server";
import { parse, type SubmissionResult } from "@conform-to/react";
import { Button, Group, Text, TextInput, Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
} from "react-router";
import { CatalogueCsvActions } from "~/components/admin/CatalogueCsv";
import { Pagination, withParams } from "~/components/admin/Pagination";
import { ProductForm } from "~/components/admin/ProductForm";
import { Picture } from "~/components/Picture";
import {
  CHOOSE_CATEGORY_FOR_SIZES,
  missingSizeRows,
  VARIANT_INTENTS,
  variantFormRows,
} from "~/components/admin/variant-rows";
import { VariantStock } from "~/components/admin/VariantStock";
import {
  changePictureRows,
  PICTURE_INTENTS,
  pictureFormRows,
  sentPictureRows,
  type PictureFormRow,
} from "~/components/admin/picture-rows";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { requireArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { AuditHistory } from "~/components/admin/AuditHistory";
import { historyOf } from "~/services/audit.server";
import { parsePaging } from "~/lib/server/paging.server";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { CATEGORY_LABELS, isCategory, type Category } from "~/lib/shared/catalog-options";
import { formatPrice } from "~/lib/shared/money";
import { productBadge } from "~/lib/shared/product-display";
import {
  redirectWithRefusal,
  replyToRefusal,
  runOrRefuse,
  submitOrRedirect,
  submitOrReply,
} from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import {
  ADMIN_PAGING,
  getAdminProduct,
  getAdminProductForEdit,
  listAdminProducts,
  normalizeSearch,
  PRODUCT_ADDED,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
} from "~/services/admin-catalog.server";
import { createProduct, deleteProduct, updateProduct } from "~/services/product-writer.server";
import {
  EMPTY_PRODUCT_FORM,
  MAX_PRODUCT_IMAGES,
  toProductFormValues,
  type ProductJson,
} from "~/lib/shared/product";
import { isMultipart, readMultipartForm, UPLOAD_FIELD, storeUploadedImage } from "~/web/uploads.server";
import adminStyles from "~/styles/admin.css?url";
import urlDialogStyles from "~/styles/url-dialog.css?url";
import auditStyles from "~/styles/audit.css?url";
import { PICTURES_BODY_LIMIT_BYTES } from "~/lib/server/body-limits.server";
import { bodyLimit } from "~/web/http-middleware.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** This route takes files: larger bodies than the 1 MB of other routes. */
export const middleware = [bodyLimit(PICTURES_BODY_LIMIT_BYTES)];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: urlDialogStyles },
  { rel: "stylesheet", href: auditStyles },
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
  await requireArea(request, "products");
  const url = new URL(request.url);
  const params = url.searchParams;
  const search = normalizeSearch(params.get("q"));
  const paging = parsePaging(params, ADMIN_PAGING, { lenient: true });
  const { products, pagination } = await listAdminProducts({ ...paging, search });

  const editId = params.get("edit");
  const deleteId = params.get("delete");
  let editForm: Awaited<ReturnType<typeof getAdminProductForEdit>> | null = null;
  let deleting: ProductJson | null = null;
  try {
    if (editId) editForm = await getAdminProductForEdit(editId);
    if (deleteId) deleting = await getAdminProduct(deleteId);
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, listUrl(url), {
      type: "error",
      message: "That product does not exist any more",
    });
  }
  return data({
    products,
    pagination,
    search,
    panel: editForm ? ("edit" as const) : params.get("panel") === "new" ? ("new" as const) : null,
    editing: editForm?.product ?? null,
    // The form's values: the product's own price, and each variant's own price pair.
    editForm: editForm ? { own: editForm.own, variants: editForm.variants } : null,
    // Who changed the product being edited, and what: its latest audit entries.
    history: editForm ? await historyOf("product", editForm.product._id) : null,
    deleting,
  });
}

type ActionData = { result: SubmissionResult<string[]> };

/** The form as sent, so that a refused save comes back with its values (the service checks them, not this route). */
function sentForm(fields: FormData) {
  return parse<undefined, string[]>(fields, { resolve: () => ({ value: undefined }) });
}

/** A refused upload is the image field's error. */
const uploadError = (error: AppError) => ({ image: [error.message] });

type Submission = ReturnType<typeof sentForm>;
type VariantRow = Record<string, string>;

/** The form's variant rows (`variants[0].size`, …), in order, as the strings their inputs hold (a new row: none). */
function variantRowsOf(payload: Submission["payload"]): VariantRow[] {
  const rows: unknown = payload.variants;
  if (!Array.isArray(rows)) return [];
  return rows.map((row: unknown) =>
    row !== null && typeof row === "object"
      ? Object.fromEntries(
          Object.entries(row).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
        )
      : {},
  );
}

/** conform's reply with the rows the form should show. */
function withRows(result: SubmissionResult<string[]>, rows: VariantRow[]): SubmissionResult<string[]> {
  return { ...result, initialValue: { ...result.initialValue, variants: rows } } as SubmissionResult<
    string[]
  >;
}

/** conform's reply with the pictures the form should show. */
function withPictureRows(
  result: SubmissionResult<string[]>,
  rows: PictureFormRow[],
): SubmissionResult<string[]> {
  const images = rows.map((row) => ({ ...row }));
  return { ...result, initialValue: { ...result.initialValue, images } } as SubmissionResult<string[]>;
}

const TOO_MANY_PICTURES = `A product has at most ${MAX_PRODUCT_IMAGES} pictures: remove some before adding more`;

/**
 * The variant table's buttons without JavaScript: "Add a row" and "Remove"
 * are conform's list intents, which `parse` has applied to the rows sent;
 * "Add every size" is the page's own. The form comes back with what the
 * admin typed and the rows changed; nothing is saved. (With JavaScript the
 * form does the same in the browser.)
 */
function changeVariantRows(
  intent: string,
  submission: Submission,
): { result: SubmissionResult<string[]>; status: number } | null {
  const rows = variantRowsOf(submission.payload);
  // A submission with one of conform's intents has no status: it asks for a change of the form, not a save.
  if (submission.status === undefined) return { result: withRows(submission.reply(), rows), status: 200 };
  if (intent !== VARIANT_INTENTS.addScale) return null;
  const category = submission.payload.category;
  if (!isCategory(category)) {
    const result = submission.reply({ fieldErrors: { category: [CHOOSE_CATEGORY_FOR_SIZES] } });
    return { result: withRows(result, rows), status: 400 };
  }
  const added = missingSizeRows(
    category,
    rows.map((row) => String(row.size ?? "")),
  );
  return { result: withRows(submission.reply(), [...rows, ...added]), status: 200 };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "products"), context);
  const url = new URL(request.url);

  if (!isMultipart(request)) {
    const formData = await readForm(request);
    if (formData.get("intent") !== "delete") {
      return redirectWithFlash(request, listUrl(url), { type: "error", message: "Unknown action" });
    }
    return submitOrRedirect(request, listUrl(url), async () => {
      await deleteProduct(String(formData.get("id") ?? ""), by);
      return redirectWithFlash(request, listUrl(url), { type: "success", message: PRODUCT_DELETED });
    });
  }

  const form = await submitOrReply(
    sentForm(new FormData()),
    () => readMultipartForm(request, { maxFiles: MAX_PRODUCT_IMAGES }),
    { fieldErrors: uploadError },
  );
  if (!form.ok) return data<ActionData>({ result: form.result }, { status: form.init.status });
  const { fields, files } = form.value;
  // The form's pictures (`images[0].url`, …); a post that names none and sends one file with an `image`
  // is the single-image form's shape, and stays so.
  const sentPictures = sentPictureRows(sentForm(fields).payload.images);
  const withPictures = sentPictures.length > 0 || (files.length > 0 && !fields.has("image"));
  if (files.length) {
    if (sentPictures.length + files.length > MAX_PRODUCT_IMAGES) {
      const result = sentForm(fields).reply({ fieldErrors: { images: [TOO_MANY_PICTURES] } });
      return data<ActionData>({ result }, { status: 400 });
    }
    // Without JavaScript the files travel with the form: store them first, then
    // the product refers to them (and a failed save keeps them: no second upload).
    for (const file of files) {
      const stored = await submitOrReply(sentForm(fields), () => storeUploadedImage(file), {
        fieldErrors: uploadError,
      });
      if (!stored.ok) return data<ActionData>({ result: stored.result }, { status: stored.init.status });
      if (withPictures) {
        const index = sentPictureRows(sentForm(fields).payload.images).length;
        fields.set(`images[${index}].url`, stored.value.url);
      } else fields.set("image", stored.value.url);
    }
  }

  const intent = String(fields.get("intent") ?? "");
  const submission = sentForm(fields);
  const rowChange = changeVariantRows(intent, submission);
  if (rowChange) return data<ActionData>({ result: rowChange.result }, { status: rowChange.status });
  const pictures = sentPictureRows(submission.payload.images);
  const changedPictures = intent === PICTURE_INTENTS.upload ? pictures : changePictureRows(intent, pictures);
  if (changedPictures) {
    const result = submission.reply();
    return data<ActionData>({ result: withPictureRows(result, changedPictures) }, { status: 200 });
  }
  const values: Record<string, unknown> = { ...submission.payload };
  delete values[UPLOAD_FIELD];
  delete values.images;
  if (withPictures || pictures.length) {
    delete values.image;
    values.images = pictures.map((picture) => ({
      url: picture.url,
      alt: picture.alt,
      colour: picture.colour || null,
    }));
  }
  // The page's form sends its variant table's rows; a post with a totalStock and no rows is today's
  // one-stock shape. A form whose rows were all removed is told that the product needs one.
  const rows = variantRowsOf(submission.payload);
  if (rows.length > 0 || !fields.has("totalStock")) values.variants = rows;
  const refuse = (error: AppError) => {
    // A product deleted meanwhile is gone from the list; any other refusal comes back to the form.
    if (error.status === 404) return redirectWithRefusal(request, listUrl(url), error);
    const { result, init } = replyToRefusal(submission, error);
    return data<ActionData>({ result }, { status: init.status });
  };
  return runOrRefuse(async () => {
    if (intent === "update") {
      await updateProduct(String(fields.get("id") ?? ""), values, by);
      return redirectWithFlash(request, listUrl(url), { type: "success", message: PRODUCT_UPDATED });
    }
    await createProduct(values, by);
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
  }, refuse);
}

export const meta: MetaFunction = () => [{ title: "Admin products · ECommerce Shopping" }];

function ProductCard({ product, params }: { product: ProductJson; params: URLSearchParams }) {
  const onSale = product.salePrice > 0;
  // The shop's own stock badges (out of stock, low stock): the admin sees what shoppers see.
  const badge = productBadge(product);
  const stockBadge = badge && badge.tone !== "sale" ? badge : null;
  return (
    <li className="admin-product-card" data-testid="admin-product-card">
      <div className="admin-product-card__picture">
        <Picture
          picture={{
            url: product.image,
            width: product.images[0]?.width ?? null,
            height: product.images[0]?.height ?? null,
            alt: "",
          }}
          // The grid's auto-fill columns of at least 14rem (admin.css .admin-product-grid): one column on a
          // phone, about 300px wide from there on.
          sizes="(max-width: 559px) calc(100vw - 2rem), 320px"
        />
        {product.images.length > 1 ? (
          <span
            className="admin-product-card__more"
            aria-label={`${product.images.length - 1} more pictures`}
          >
            +{product.images.length - 1}
          </span>
        ) : null}
      </div>
      <div className="admin-product-card__body">
        <h2>{product.title}</h2>
        <p className="admin-price">
          <span className={onSale ? "admin-price--struck" : undefined}>{formatPrice(product.price)}</span>
          {onSale ? <strong>{formatPrice(product.salePrice)}</strong> : null}
        </p>
        <p className="admin-product-card__meta" data-testid="admin-product-stock">
          <span>{CATEGORY_LABELS[product.category as Category] ?? product.category}</span>
          {product.variants.length > 1 ? (
            <VariantStock variants={product.variants} />
          ) : (
            <span>Stock: {product.totalStock}</span>
          )}
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
  const { products, pagination, search, panel, editing, editForm, history, deleting } =
    useLoaderData<typeof loader>();
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
              placeholder="Search by title, brand or SKU"
              aria-label="Search products by title, brand or SKU"
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

      <CatalogueCsvActions search={search} />

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
            defaultValue={editForm ? toProductFormValues(editForm.own) : EMPTY_PRODUCT_FORM}
            defaultVariants={editForm ? variantFormRows(editForm.variants) : [{}]}
            defaultPictures={editing ? pictureFormRows(editing.images) : []}
            lastResult={actionData?.result}
            action={formAction}
            version={editing?.version}
            reloadTo={editing ? withParams("/admin/products", list, { edit: editing._id }) : undefined}
          />
          {editing && history ? (
            <AuditHistory
              entries={history}
              fullLogHref={`/admin/audit?entity=product&entityId=${editing._id}`}
            />
          ) : null}
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
