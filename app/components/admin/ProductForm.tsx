import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  parse,
  useForm,
} from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { Button, NativeSelect, Stack, Text, TextInput, Textarea } from "@mantine/core";
import { Form, useNavigation } from "react-router";
import { VERSION_CONFLICT_MESSAGE } from "~/lib/shared/audit";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  EDITABLE_PRODUCT_FIELDS,
  type EditableFieldName,
  type ProductField,
  type ProductFormValues,
} from "~/lib/shared/product";
import { useHydrated } from "~/lib/shared/use-hydrated";
import type { PictureFormRow } from "./picture-rows";
import { sentPictureRows } from "./picture-rows";
import { PictureList } from "./PictureList";
import type { VariantFormRow } from "./variant-rows";
import { VariantTable } from "./VariantTable";

/**
 * SPEC §5: the fields that must be filled before Add/Edit is enabled (the
 * image has its own upload state). Optional ones, such as the sale price
 * (API.md: empty or 0 means no sale), may stay empty.
 */
const REQUIRED_FIELDS = EDITABLE_PRODUCT_FIELDS.filter(
  (field) => "required" in field && field.required && field.kind !== "image" && field.name !== "totalStock",
);

/** The labels of the required fields that are still empty. */
function missingFieldsOf(valueOf: (name: EditableFieldName) => string): string[] {
  return REQUIRED_FIELDS.filter((field) => !valueOf(field.name).trim()).map((field) => field.label);
}

interface ProductFormProps {
  mode: "new" | "edit";
  productId?: string;
  defaultValue: ProductFormValues;
  /** The variant table's rows: the product's variants, or one empty row for a new product. */
  defaultVariants: VariantFormRow[];
  /** The product's pictures, or none for a new product. */
  defaultPictures: PictureFormRow[];
  lastResult?: SubmissionResult<string[]> | null;
  /** The URL the form posts to (the page, with its search params). */
  action: string;
  /** The product's version when the page loaded: a save answers 409 when it changed since. */
  version?: number;
  /** Where a stale save's "reload" link goes (the edit form, fresh). */
  reloadTo?: string;
}

type ProductFormSchema = ProductFormValues & { variants: VariantFormRow[] };

export function ProductForm({
  mode,
  productId,
  defaultValue,
  defaultVariants,
  defaultPictures,
  lastResult,
  action,
  version,
  reloadTo,
}: ProductFormProps) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const [form, fields] = useForm<ProductFormSchema>({
    id: `product-${productId ?? "new"}`,
    lastResult,
    defaultValue: { ...defaultValue, variants: defaultVariants },
    // conform's list intents (a variant row added or removed) are carried out here, in the browser; any
    // other submit goes to the server as it is.
    onValidate: ({ formData }) =>
      parse(formData, { resolve: (_payload, intent) => (intent ? { error: {} } : { error: null }) }),
    // The server validates (its messages come back per field, with or without JavaScript); the
    // browser only keeps Add disabled until the required fields are filled. No schema runs here:
    // it would bring zod into the admin's JavaScript (docs/decisions/0008).
  });
  // The pictures the server sent back (a refused save, a picture moved without JavaScript), else the product's.
  const [initialPictures] = useState(() =>
    lastResult?.initialValue && "images" in lastResult.initialValue
      ? sentPictureRows(lastResult.initialValue.images)
      : defaultPictures,
  );
  const [pictureCount, setPictureCount] = useState(initialPictures.length);
  const [missingFields, setMissingFields] = useState(() => missingFieldsOf((name) => defaultValue[name]));
  const [category, setCategory] = useState(() =>
    String(fields.category.initialValue ?? defaultValue.category),
  );
  const [colours, setColours] = useState(() =>
    coloursOf(
      fields.variants.getFieldList().map((row) => String(row.getFieldset().colour.initialValue ?? "")),
    ),
  );
  const recompute = useCallback(() => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    setMissingFields(missingFieldsOf((name) => String(data.get(name) ?? "")));
    setCategory(String(data.get("category") ?? ""));
    const chosen = [...data.entries()]
      .filter(([name]) => /^variants\[\d+\]\.colour$/.test(name))
      .map(([, value]) => String(value));
    setColours((current) => {
      const next = coloursOf(chosen);
      return next.join() === current.join() ? current : next;
    });
  }, []);
  useEffect(recompute, [recompute, lastResult]);

  const submitting = navigation.state === "submitting" && navigation.formAction === action;
  const missing = [...(pictureCount > 0 ? [] : ["Pictures"]), ...missingFields];
  const complete = missing.length === 0;
  const missingId = `${form.id}-missing`;
  const saveIntent = mode === "new" ? "create" : "update";
  // A refused save keeps the version it was based on: the page's data is fresh after the refusal, and saving
  // the kept input on top of it would overwrite the other change unseen. Only the reload link moves it on.
  const sentVersion = (lastResult?.initialValue as { version?: unknown } | undefined)?.version;
  const basedOn = typeof sentVersion === "string" && sentVersion ? sentVersion : version;
  const stale = form.errors?.[0] === VERSION_CONFLICT_MESSAGE;

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
          <Text c="red.7" size="sm" role="alert" id={form.errorId} data-testid="product-form-error">
            {form.errors[0]}
            {stale && reloadTo ? (
              <>
                {" "}
                <a href={reloadTo} data-testid="product-form-reload">
                  Reload the product
                </a>
              </>
            ) : null}
          </Text>
        ) : null}
        {/* Enter in a field saves: the first submit button is the form's default, not a row's Remove. */}
        <button
          type="submit"
          name="intent"
          value={saveIntent}
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          disabled={hydrated && !complete}
        />
        {productId ? <input type="hidden" name="id" value={productId} /> : null}
        {basedOn !== undefined ? <input type="hidden" name="version" value={String(basedOn)} /> : null}
        {EDITABLE_PRODUCT_FIELDS.map((field) =>
          // The stock is the variants' sum: the table below sets it per size.
          field.name === "totalStock" ? null : field.kind === "image" ? (
            // The image is the first picture: the list sends them all.
            <PictureList
              key={field.name}
              initialRows={initialPictures}
              colours={colours}
              errors={lastResult?.error}
              onCountChange={setPictureCount}
            />
          ) : (
            <FieldInput key={fields[field.name].key} field={field} meta={fields[field.name]} />
          ),
        )}
        <VariantTable form={form} variants={fields.variants} category={category} />
        <Button
          type="submit"
          name="intent"
          value={saveIntent}
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

/** The distinct colours of the variant rows, in their order. */
function coloursOf(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ""))];
}

type FieldMeta = ReturnType<typeof useForm<ProductFormSchema>>[1][EditableFieldName];

/** One field's input, by its kind: a text box, a text area, a select, or a box for an amount or a count. */
function FieldInput({ field, meta }: { field: ProductField & { name: EditableFieldName }; meta: FieldMeta }) {
  const common = {
    label: field.label,
    placeholder: field.placeholder,
    description: field.hint,
    error: meta.errors?.[0],
    errorProps: { id: meta.errorId },
  };
  if (field.kind === "choice") {
    return (
      <NativeSelect
        {...getSelectProps(meta)}
        {...common}
        data={[
          { value: "", label: `Select ${field.label}` },
          ...field.options.map((value) => ({ value, label: field.optionLabels[value] ?? value })),
        ]}
      />
    );
  }
  if (field.kind === "text" && field.multiline) {
    return <Textarea {...getTextareaProps(meta)} {...common} autosize minRows={3} />;
  }
  const inputMode = field.kind === "money" ? "decimal" : field.kind === "count" ? "numeric" : undefined;
  return <TextInput {...getInputProps(meta, { type: "text" })} {...common} inputMode={inputMode} />;
}
