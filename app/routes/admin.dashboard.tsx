import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { BANNER_DEFAULTS } from "~/components/Banner";
import { ImageUpload } from "~/components/ImageUpload";
import { Picture } from "~/components/Picture";
import { requireAdmin } from "~/web/auth.server";
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
import { isMultipart, readMultipartForm, storeImage } from "~/services/uploads.server";
import adminStyles from "~/styles/admin.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ features: await listFeatureViews() });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const refuse = (error: AppError) => {
    if (error.status === 404) return redirectWithRefusal(request, "/admin/dashboard", error);
    const detail = error.fieldErrors ? Object.values(error.fieldErrors).flat()[0] : undefined;
    return json({ error: detail ?? error.message }, { status: error.status });
  };
  return runOrRefuse(async () => {
    if (!isMultipart(request)) {
      const formData = await request.formData();
      if (formData.get("intent") !== "delete") throw badRequest("Unknown action");
      await deleteFeature(String(formData.get("id") ?? ""));
      return redirectWithFlash(request, "/admin/dashboard", { type: "success", message: FEATURE_DELETED });
    }
    // With JavaScript the image is uploaded already (its URL is in `image`);
    // without, the file travels with this form.
    const { fields, file } = await readMultipartForm(request);
    const image = file ? (await storeImage(file)).url : fields.get("image");
    await addFeature({
      image,
      title: fields.get("title"),
      subtitle: fields.get("subtitle"),
      link: fields.get("link"),
    });
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

export default function AdminDashboard() {
  const { features } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [imageUrl, setImageUrl] = useState("");
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "add";
  // A new list means the last add worked: a fresh upload area (the spec clears the selection).
  const formKey = features.map((feature) => feature._id).join(",");

  return (
    <section className="admin-page">
      <Title order={1} size="h2" mb="md">
        Dashboard
      </Title>
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
    </section>
  );
}
