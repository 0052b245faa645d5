import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { Button, NativeSelect, Stack, Text, TextInput, Textarea } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ImageUpload } from "~/components/ImageUpload";
import { BRAND_LABELS, BRANDS, CATEGORIES, CATEGORY_LABELS } from "~/lib/shared/catalog-options";
import { useHydrated } from "~/lib/shared/use-hydrated";

/** The values a form shows: strings, as inputs hold them. */
export interface ProductFormValues {
  image: string;
  title: string;
  description: string;
  category: string;
  brand: string;
  price: string;
  salePrice: string;
  totalStock: string;
}

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  image: "",
  title: "",
  description: "",
  category: "",
  brand: "",
  price: "",
  salePrice: "",
  totalStock: "",
};

/**
 * SPEC §5: the fields that must be filled before Add/Edit is enabled. The
 * sale price is optional (API.md: empty or 0 means no sale).
 */
const REQUIRED_FIELDS = ["title", "description", "category", "brand", "price", "totalStock"] as const;

const FIELD_LABELS: Record<(typeof REQUIRED_FIELDS)[number] | "image", string> = {
  image: "Image",
  title: "Title",
  description: "Description",
  category: "Category",
  brand: "Brand",
  price: "Price",
  totalStock: "Total Stock",
};

/** The labels of the required fields that are still empty. */
function missingFieldsOf(valueOf: (name: (typeof REQUIRED_FIELDS)[number]) => string): string[] {
  return REQUIRED_FIELDS.filter((name) => !valueOf(name).trim()).map((name) => FIELD_LABELS[name]);
}

interface ProductFormProps {
  mode: "new" | "edit";
  productId?: string;
  defaultValue: ProductFormValues;
  lastResult?: SubmissionResult<string[]> | null;
  /** The URL the form posts to (the page, with its search params). */
  action: string;
}

export function ProductForm({ mode, productId, defaultValue, lastResult, action }: ProductFormProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm({
    id: `product-${productId ?? "new"}`,
    lastResult,
    defaultValue,
    // The server validates (its messages come back per field, with or without JavaScript); the
    // browser only keeps Add disabled until the required fields are filled. No schema runs here:
    // it would bring zod into the admin's JavaScript (docs/decisions/0008).
  });
  const initialImage = String(fields.image.initialValue ?? defaultValue.image ?? "");
  const [imageUrl, setImageUrl] = useState(initialImage);
  const [missingFields, setMissingFields] = useState(() => missingFieldsOf((name) => defaultValue[name]));
  const recompute = useCallback(() => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    setMissingFields(missingFieldsOf((name) => String(data.get(name) ?? "")));
  }, []);
  useEffect(recompute, [recompute, lastResult]);

  const submitting = navigation.state === "submitting" && navigation.formAction === action;
  const missing = [...(imageUrl.trim() ? [] : [FIELD_LABELS.image]), ...missingFields];
  const complete = missing.length === 0;
  const missingId = `${form.id}-missing`;
  const imageError = fields.image.errors?.[0] ?? (lastResult?.error?.my_file ?? [])[0];

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      ref={formRef}
      onInput={recompute}
      onChange={recompute}
      {...getFormProps(form)}
    >
      <Stack gap="md">
        {form.errors?.length ? (
          <Text c="red.7" size="sm" role="alert" id={form.errorId}>
            {form.errors[0]}
          </Text>
        ) : null}
        <input type="hidden" name="intent" value={mode === "new" ? "create" : "update"} />
        {productId ? <input type="hidden" name="id" value={productId} /> : null}
        <ImageUpload name="image" initialUrl={initialImage} error={imageError} onUrlChange={setImageUrl} />
        <TextInput
          {...getInputProps(fields.title, { type: "text" })}
          key={fields.title.key}
          label="Title"
          placeholder="Enter product title"
          error={fields.title.errors?.[0]}
          errorProps={{ id: fields.title.errorId }}
        />
        <Textarea
          {...getTextareaProps(fields.description)}
          key={fields.description.key}
          label="Description"
          placeholder="Enter product description"
          autosize
          minRows={3}
          error={fields.description.errors?.[0]}
          errorProps={{ id: fields.description.errorId }}
        />
        <NativeSelect
          {...getSelectProps(fields.category)}
          key={fields.category.key}
          label="Category"
          data={[
            { value: "", label: "Select Category" },
            ...CATEGORIES.map((value) => ({ value, label: CATEGORY_LABELS[value] })),
          ]}
          error={fields.category.errors?.[0]}
          errorProps={{ id: fields.category.errorId }}
        />
        <NativeSelect
          {...getSelectProps(fields.brand)}
          key={fields.brand.key}
          label="Brand"
          data={[
            { value: "", label: "Select Brand" },
            ...BRANDS.map((value) => ({ value, label: BRAND_LABELS[value] })),
          ]}
          error={fields.brand.errors?.[0]}
          errorProps={{ id: fields.brand.errorId }}
        />
        <TextInput
          {...getInputProps(fields.price, { type: "text" })}
          key={fields.price.key}
          inputMode="decimal"
          label="Price"
          placeholder="Enter product price"
          error={fields.price.errors?.[0]}
          errorProps={{ id: fields.price.errorId }}
        />
        <TextInput
          {...getInputProps(fields.salePrice, { type: "text" })}
          key={fields.salePrice.key}
          inputMode="decimal"
          label="Sale Price"
          placeholder="Enter sale price (optional)"
          description="Leave empty (or 0) when the product is not on sale"
          error={fields.salePrice.errors?.[0]}
          errorProps={{ id: fields.salePrice.errorId }}
        />
        <TextInput
          {...getInputProps(fields.totalStock, { type: "text" })}
          key={fields.totalStock.key}
          inputMode="numeric"
          label="Total Stock"
          placeholder="Enter total stock"
          error={fields.totalStock.errors?.[0]}
          errorProps={{ id: fields.totalStock.errorId }}
        />
        <Button
          type="submit"
          fullWidth
          disabled={hydrated && !complete}
          loading={submitting}
          aria-describedby={hydrated && !complete ? missingId : undefined}
        >
          {mode === "new" ? "Add" : "Edit"}
        </Button>
        {hydrated && !complete ? (
          // A disabled button says why: the admin should not have to guess what is missing.
          <p className="product-form__missing" id={missingId} data-testid="product-form-missing">
            To {mode === "new" ? "add" : "save"} the product, fill in: {missing.join(", ")}
          </p>
        ) : null}
      </Stack>
    </Form>
  );
}
