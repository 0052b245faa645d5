import { readForm } from "~/lib/server/request-body.server";
import { Alert, Badge, Button, Group, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
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
  useNavigation,
} from "react-router";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { BANNER_DEFAULTS } from "~/components/Banner";
import { ImageUpload } from "~/components/ImageUpload";
import { Picture } from "~/components/Picture";
import { requireAdmin, requireArea } from "~/web/auth.server";
import { holds, type Permission } from "~/lib/shared/permissions";
import { auditByOf } from "~/web/audit.server";
import { badRequest, type AppError } from "~/lib/server/errors.server";
import { redirectWithRefusal, runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import {
  addFeature,
  deleteFeature,
  FEATURE_ADDED,
  FEATURE_DELETED,
  listFeatureViews,
  type FeatureView,
} from "~/services/features.server";
import { isMultipart, readMultipartForm, storeUploadedImage } from "~/web/uploads.server";
import { ordersAwaitingShipment, salesReport } from "~/services/reports.server";
import { getConfig } from "~/lib/server/config.server";
import { formatPrice } from "~/lib/shared/money";
import { ORDER_STATUS_LABELS } from "~/lib/shared/order-options";
import {
  dashboardPeriod,
  formatChange,
  previousLabel,
  REPORT_PRESETS,
  todayIn,
} from "~/lib/shared/report-period";
import { variantLabel } from "~/lib/shared/variants";
import { formatSignedPrice, SalesChart, shortDate } from "~/components/admin/SalesChart";
import adminStyles from "~/styles/admin.css?url";
import dashboardStyles from "~/styles/admin-dashboard.css?url";
import { UPLOAD_BODY_LIMIT_BYTES } from "~/lib/server/body-limits.server";
import { bodyLimit } from "~/web/http-middleware.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** This route takes files: larger bodies than the 1 MB of other routes. */
export const middleware = [bodyLimit(UPLOAD_BODY_LIMIT_BYTES)];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "stylesheet", href: dashboardStyles },
];

/**
 * The dashboard is every back-office person's home; each part shows only to
 * those who hold its area (null otherwise): the sales figures (reports), the
 * orders waiting to be shipped (orders) and the feature banners (banners).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const may = (area: Permission) => holds(user, area);
  const params = new URL(request.url).searchParams;
  const chosen = dashboardPeriod(
    { period: params.get("period"), from: params.get("from"), to: params.get("to") },
    todayIn(getConfig().shopTimeZone),
  );
  const [report, awaitingShipment, features] = await Promise.all([
    may("reports") ? salesReport(chosen.period) : null,
    may("orders") ? ordersAwaitingShipment() : null,
    may("banners") ? listFeatureViews() : null,
  ]);
  return data({ chosen, report, awaitingShipment, features }, { status: chosen.error ? 400 : 200 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const by = auditByOf(await requireArea(request, "banners"), context);
  const refuse = (error: AppError) => {
    if (error.status === 404) return redirectWithRefusal(request, "/admin/dashboard", error);
    const detail = error.fieldErrors ? Object.values(error.fieldErrors).flat()[0] : undefined;
    return data({ error: detail ?? error.message }, { status: error.status });
  };
  return runOrRefuse(async () => {
    if (!isMultipart(request)) {
      const formData = await readForm(request);
      if (formData.get("intent") !== "delete") throw badRequest("Unknown action");
      await deleteFeature(String(formData.get("id") ?? ""), by);
      return redirectWithFlash(request, "/admin/dashboard", { type: "success", message: FEATURE_DELETED });
    }
    // With JavaScript the image is uploaded already (its URL is in `image`);
    // without, the file travels with this form.
    const { fields, file } = await readMultipartForm(request);
    const image = file ? (await storeUploadedImage(file)).url : fields.get("image");
    await addFeature(
      {
        image,
        title: fields.get("title"),
        subtitle: fields.get("subtitle"),
        link: fields.get("link"),
      },
      by,
    );
    return redirectWithFlash(request, "/admin/dashboard", { type: "success", message: FEATURE_ADDED });
  }, refuse);
}

export const meta: MetaFunction = () => [{ title: "Admin dashboard · ECommerce Shopping" }];

/** A feature image at the spec's 300px height; "Failed to load image" when it cannot load. */
function FeatureImage({ feature, index }: { feature: FeatureView; index: number }) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  // An image can fail before React listens (during hydration): check once mounted.
  useEffect(() => {
    const image = ref.current;
    if (image && image.complete && image.naturalWidth === 0) setFailed(true);
  }, []);
  if (failed) {
    return (
      <div
        className="feature-image feature-image--failed"
        role="img"
        aria-label={`Feature image ${index + 1}`}
      >
        Failed to load image
      </div>
    );
  }
  return (
    <Picture
      imgRef={ref}
      picture={{
        url: feature.image,
        width: feature.imageWidth,
        height: feature.imageHeight,
        alt: `Feature image ${index + 1}`,
      }}
      className="feature-image"
      // The list's full width (admin.css .feature-image, 300px high, cropped): the page less the
      // 16rem sidebar and the content's 1rem padding on wide screens (app.css .admin-sidebar).
      sizes="(min-width: 1024px) calc(100vw - 18rem), calc(100vw - 2rem)"
      // Loaded at once, as before: a broken picture further down must say so without being scrolled to.
      priority="eager"
      onError={() => setFailed(true)}
    />
  );
}

type DashboardData = ReturnType<typeof useLoaderData<typeof loader>>;

/** The period chooser: ready-made periods as links, two dates as a GET form (state in the URL, no JS needed). */
function PeriodChooser({ chosen }: { chosen: DashboardData["chosen"] }) {
  return (
    <div className="admin-card">
      <nav aria-label="Report period" className="dashboard-periods">
        {REPORT_PRESETS.map((preset) => (
          <Link
            key={preset.value}
            to={`?period=${preset.value}`}
            className={chosen.preset === preset.value ? "admin-btn admin-btn--dark" : "admin-btn"}
            aria-current={chosen.preset === preset.value ? "page" : undefined}
          >
            {preset.label}
          </Link>
        ))}
      </nav>
      <Form method="get" className="dashboard-dates">
        <TextInput
          type="date"
          name="from"
          label="From"
          defaultValue={chosen.period.from}
          required
          error={chosen.error ?? undefined}
        />
        <TextInput type="date" name="to" label="To" defaultValue={chosen.period.to} required />
        <Button type="submit" variant="default">
          Show
        </Button>
      </Form>
    </div>
  );
}

/** The dashboard shows the scarcest variants; the report (and its API) lists more. */
const DASHBOARD_LOW_STOCK = 12;

const FIGURES = [
  { key: "revenue", label: "Revenue", money: true },
  { key: "orders", label: "Paid orders", money: false },
  { key: "averageOrderValue", label: "Average order value", money: true },
  { key: "units", label: "Units sold", money: false },
  { key: "refunded", label: "Refunds", money: true },
] as const;

type Report = NonNullable<DashboardData["report"]>;
type AwaitingShipment = NonNullable<DashboardData["awaitingShipment"]>;

function FigureCards({ report }: { report: Report }) {
  const compared = previousLabel(report);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" mb="md" className="dashboard-figures">
      {FIGURES.map((figure) => {
        const value = report[figure.key];
        const before = report.previous[figure.key];
        const show = (amount: number) => (figure.money ? formatSignedPrice(amount) : String(amount));
        return (
          <div key={figure.key} className="admin-card dashboard-figure" data-figure={figure.key}>
            <Text size="sm" c="dimmed">
              {figure.label}
            </Text>
            <Text fw={700} fz="xl" className="dashboard-figure__value">
              {show(value)}
            </Text>
            <Text size="xs" c="dimmed">
              {formatChange(value, before)} vs {compared} ({show(before)})
            </Text>
          </div>
        );
      })}
    </SimpleGrid>
  );
}

function AwaitingShipmentCard({ awaitingShipment }: { awaitingShipment: AwaitingShipment }) {
  return (
    <div className="admin-card">
      <Title order={3} size="h5" mb="xs">
        Waiting to be shipped ({awaitingShipment.total})
      </Title>
      {awaitingShipment.orders.length ? (
        <ul className="dashboard-list">
          {awaitingShipment.orders.map((order) => (
            <li key={order._id}>
              <Link to={`/admin/orders/${order._id}`}>
                {order.userName} · {formatPrice(order.totalAmount)}
              </Link>{" "}
              {/* Dark text on every badge here (an outline, or a light tint below): WCAG AA contrast for small text. */}
              <Badge size="sm" variant="outline" color="dark">
                {ORDER_STATUS_LABELS[order.orderStatus]}
              </Badge>
              {order.capturedAt ? (
                <Text span size="xs" c="dimmed">
                  {" "}
                  paid {order.capturedAt.slice(0, 10)}
                </Text>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <Text c="dimmed">Nothing waiting: every paid order is on its way.</Text>
      )}
    </div>
  );
}

function SalesOverview({
  report,
  awaitingShipment,
  chosen,
}: {
  report: Report;
  awaitingShipment: AwaitingShipment | null;
  chosen: DashboardData["chosen"];
}) {
  return (
    <section aria-labelledby="sales-heading">
      <Title order={2} size="h3" mb="sm" id="sales-heading">
        Sales {shortDate(report.from)}
        {report.from !== report.to ? ` – ${shortDate(report.to)}` : ""}
      </Title>
      <PeriodChooser chosen={chosen} />
      {chosen.error ? (
        <Alert color="red" mb="md" role="alert">
          {chosen.error}. Showing the last 30 days.
        </Alert>
      ) : null}
      <FigureCards report={report} />
      <div className="admin-card">
        <Title order={3} size="h5" mb="xs">
          Revenue by day
        </Title>
        <SalesChart days={report.byDay} />
        <Text size="xs" c="dimmed" mt="xs">
          Days of {report.timeZone}. Revenue is captured money less refunds, on the day each happened.
        </Text>
      </div>
      <div className="dashboard-lists">
        {awaitingShipment ? <AwaitingShipmentCard awaitingShipment={awaitingShipment} /> : null}
        <div className="admin-card">
          <Title order={3} size="h5" mb="xs">
            Low on stock
          </Title>
          {report.lowStock.length ? (
            <ul className="dashboard-list">
              {report.lowStock.slice(0, DASHBOARD_LOW_STOCK).map((variant) => (
                <li key={variant.variantId}>
                  <Link to={`/admin/products?edit=${variant.productId}`}>
                    {variant.title}
                    {variant.size || variant.colour ? ` · ${variantLabel(variant)}` : ""}
                  </Link>{" "}
                  <Text span size="xs" c="dimmed">
                    {variant.sku}
                  </Text>{" "}
                  <Badge
                    size="sm"
                    color={variant.totalStock === 0 ? "red" : "yellow"}
                    variant="light"
                    c="dark.9"
                  >
                    {variant.totalStock === 0 ? "Sold out" : `${variant.totalStock} left`}
                  </Badge>
                  {variant.waiting > 0 ? (
                    <Badge size="sm" color="blue" variant="light" c="dark.9" data-testid="low-stock-waiting">
                      {variant.waiting} waiting
                    </Badge>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <Text c="dimmed">Every variant is well stocked.</Text>
          )}
          {report.lowStock.length > DASHBOARD_LOW_STOCK ? (
            <Text size="sm" c="dimmed" mt="xs">
              and {report.lowStock.length - DASHBOARD_LOW_STOCK} more low-stock variants in the{" "}
              <Link to="/admin/products">products</Link>
            </Text>
          ) : null}
        </div>
        <div className="admin-card">
          <Title order={3} size="h5" mb="xs">
            Top products
          </Title>
          {report.topProducts.length ? (
            <ol className="dashboard-list">
              {report.topProducts.map((product) => (
                <li key={product.productId}>
                  <Link to={`/admin/products?edit=${product.productId}`}>{product.title}</Link>{" "}
                  <Text span size="sm">
                    {formatPrice(product.revenue)} · {product.units} sold
                  </Text>
                </li>
              ))}
            </ol>
          ) : (
            <Text c="dimmed">No sales in this period.</Text>
          )}
        </div>
      </div>
    </section>
  );
}

export default function AdminDashboard() {
  const data = useLoaderData<typeof loader>();
  const { features, report, awaitingShipment, chosen } = data;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [imageUrl, setImageUrl] = useState("");
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "add";
  // A new list means the last add worked: a fresh upload area (the spec clears the selection).
  const formKey = (features ?? []).map((feature) => feature._id).join(",");

  return (
    <section className="admin-page">
      <Title order={1} size="h2" mb="md">
        Dashboard
      </Title>
      {report ? (
        <SalesOverview report={report} awaitingShipment={awaitingShipment} chosen={chosen} />
      ) : awaitingShipment ? (
        <AwaitingShipmentCard awaitingShipment={awaitingShipment} />
      ) : null}
      {!report && !awaitingShipment && !features ? (
        <Text>Welcome. The menu lists the parts of the shop you look after.</Text>
      ) : null}
      {features ? (
        <>
          <div className="admin-card">
            <Title order={2} size="h4" mb="sm">
              Feature Images
            </Title>
            <Form method="post" encType="multipart/form-data" key={formKey}>
              <Stack gap="sm" maw={560}>
                <input type="hidden" name="intent" value="add" />
                <ImageUpload
                  name="image"
                  label="Upload Image"
                  error={actionData?.error}
                  onUrlChange={setImageUrl}
                />
                <TextInput
                  name="title"
                  label="Title (optional)"
                  maxLength={80}
                  description={`Shown over the image; empty: "${BANNER_DEFAULTS.title}"`}
                />
                <TextInput name="subtitle" label="Subtitle (optional)" maxLength={160} />
                <TextInput
                  name="link"
                  label="Link (optional)"
                  maxLength={300}
                  placeholder="/shop/listing?category=men"
                  description={`Where "Shop now" goes, a path on this shop; empty: ${BANNER_DEFAULTS.link}`}
                />
                <Button type="submit" disabled={hydrated && !imageUrl} loading={adding}>
                  Upload
                </Button>
              </Stack>
            </Form>
          </div>

          <ul className="feature-list" aria-label="Feature images">
            {features.map((feature, index) => (
              <li key={feature._id} className="feature-list__item">
                <FeatureImage feature={feature} index={index} />
                <p className="feature-list__text">
                  <strong>{feature.title || BANNER_DEFAULTS.title}</strong>
                  {feature.subtitle ? ` · ${feature.subtitle}` : ""} → {feature.link || BANNER_DEFAULTS.link}
                </p>
                <Group justify="flex-end" p="xs">
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={feature._id} />
                    <Button
                      type="submit"
                      variant="default"
                      size="xs"
                      aria-label={`Delete feature image ${index + 1}`}
                    >
                      Delete
                    </Button>
                  </Form>
                </Group>
              </li>
            ))}
          </ul>
          {features.length === 0 ? <Text c="dimmed">No feature images yet.</Text> : null}
        </>
      ) : null}
    </section>
  );
}
