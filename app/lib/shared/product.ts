import {
  BRAND_LABELS,
  BRANDS,
  CATEGORIES,
  CATEGORY_LABELS,
  type Brand,
  type Category,
} from "./catalog-options";
import { centsToDecimal, decimalToNumber } from "./money";
import { cheapestVariant, type VariantJson } from "./variants";

/**
 * The product, defined once. Every field says here what it is (its kind),
 * where it lives (its column), how the JSON API names it, how the admin form
 * labels and fills it, and its limits; everything else derives from this
 * table by kind:
 *
 * - the Sequelize model's attributes (app/models/index.server.ts),
 * - the catalogue's SQL column list and the row → JSON conversion (below),
 * - the input rules for the JSON API and the HTML actions, and the OpenAPI
 *   document's schemas (app/lib/shared/product-schema.ts, app/web/openapi),
 * - the admin form's inputs, values and required fields (components/admin/ProductForm.tsx),
 * - the details' list of facts (components/ProductDetails.tsx).
 *
 * A new field is one entry here and a migration for its column. Safe to
 * import in the browser: no zod, nothing of the server.
 */

export const MAX_PRICE_CENTS = 100_000_000; // $1,000,000.00
export const MAX_STOCK = 1_000_000;
export const MAX_IMAGE_URL_LENGTH = 2048;
/** A product's gallery: at least one picture (the spec's `image`), at most this many. */
export const MAX_PRODUCT_IMAGES = 8;
export const MAX_IMAGE_ALT_LENGTH = 200;

/**
 * One picture of a product's gallery, in order (API.md "Product images"). The
 * first is the product's `image`. `width`/`height` are the picture's own (after
 * the upload's rotation), null when the shop cannot know them (another site's
 * URL). `colour` names the variant colour it shows, or null.
 */
export interface ProductImageJson {
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
  colour: string | null;
}

interface FieldCommon {
  /** The admin form's label; messages use it in sentence case ("Sale Price" → "Sale price"). */
  label: string;
  /** The products table's column. */
  column: string;
  /** Filled in by the shop, never by input (the id, the average of the reviews). */
  readOnly?: true;
  /** What the form shows in an empty input. */
  placeholder?: string;
  /** A line under the form's input. */
  hint?: string;
  /** What the OpenAPI document says about the field's input, where the kind's own words are not enough. */
  apiDescription?: string;
  /** What the OpenAPI document says about the field's value in answers. */
  jsonDescription?: string;
  /** Shown in the product details' list of facts (label: value) when it has a value. */
  inDetails?: true;
}

/** The kinds a product field can be; each has one column type, one input rule and one JSON type. */
export type ProductField = FieldCommon &
  (
    | { kind: "id"; json: string }
    /** An image reference: an uploaded image or an http(s) URL (TEXT). */
    | { kind: "image"; required: true }
    /** Text, trimmed, at most `max` characters; `multiline` is a TEXT column and a text area. */
    | { kind: "text"; required: boolean; max: number; multiline?: true }
    /** One of a fixed vocabulary, stored as its key. */
    | { kind: "choice"; required: true; options: readonly string[]; optionLabels: Record<string, string> }
    /**
     * An amount of money, DECIMAL(10,2), taken as "49.9", "49.90" or 49.9 and kept as cents in
     * between. An optional amount is NULL when absent, and 0 in JSON (0, empty or null mean none).
     */
    | { kind: "money"; required: boolean; example: string }
    /** A whole number from 0 to `max` (INTEGER). */
    | { kind: "count"; required: true; max: number }
    /** The average of the reviews, 0 to 5 (DECIMAL(3,2)). */
    | { kind: "rating" }
    /** Raised by every change (INTEGER, from 1): an admin's edit names the one it was based on. */
    | { kind: "version" }
  );

const PRODUCT_FIELDS = {
  id: { kind: "id", label: "Id", column: "id", json: "_id", readOnly: true },
  image: { kind: "image", label: "Image", column: "image", required: true },
  title: {
    kind: "text",
    label: "Title",
    column: "title",
    required: true,
    max: 200,
    placeholder: "Enter product title",
  },
  description: {
    kind: "text",
    label: "Description",
    column: "description",
    required: true,
    max: 5000,
    multiline: true,
    placeholder: "Enter product description",
  },
  category: {
    kind: "choice",
    label: "Category",
    column: "category",
    required: true,
    options: CATEGORIES,
    optionLabels: CATEGORY_LABELS,
  },
  brand: {
    kind: "choice",
    label: "Brand",
    column: "brand",
    required: true,
    options: BRANDS,
    optionLabels: BRAND_LABELS,
  },
  material: {
    kind: "text",
    label: "Material",
    column: "material",
    required: false,
    max: 80,
    placeholder: "Such as 100% organic cotton (optional)",
    inDetails: true,
  },
  price: {
    kind: "money",
    label: "Price",
    column: "price",
    required: true,
    example: "49.90",
    placeholder: "Enter product price",
  },
  salePrice: {
    kind: "money",
    label: "Sale Price",
    column: "sale_price",
    required: false,
    example: "39.90",
    placeholder: "Enter sale price (optional)",
    hint: "Leave empty (or 0) when the product is not on sale",
    apiDescription: "Below the price; 0, empty or null mean no sale",
    jsonDescription: "0 when the product is not on sale",
  },
  totalStock: {
    kind: "count",
    label: "Total Stock",
    column: "total_stock",
    required: true,
    max: MAX_STOCK,
    placeholder: "Enter total stock",
  },
  averageReview: { kind: "rating", label: "Average review", column: "average_review", readOnly: true },
  version: {
    kind: "version",
    label: "Version",
    column: "version",
    readOnly: true,
    jsonDescription:
      "Raised by every change; send it back with an admin edit to get 409 when someone else changed the product since",
  },
} as const satisfies Record<string, ProductField>;

type Fields = typeof PRODUCT_FIELDS;
type ProductFieldName = keyof Fields;
/** The fields an admin enters (the form, the API's create and update). */
export type EditableFieldName = {
  [K in ProductFieldName]: Fields[K] extends { readOnly: true } ? never : K;
}[ProductFieldName];

type OptionOf<F> = F extends { options: readonly (infer O)[] } ? O : never;

type JsonKey<K extends ProductFieldName> = Fields[K] extends { json: infer J extends string } ? J : K;

/** A field's value in JSON (pages and the API). */
type JsonValue<F> = F extends { kind: "choice" }
  ? OptionOf<F>
  : F extends { kind: "money" | "count" | "rating" | "version" }
    ? number
    : F extends { kind: "id" | "image" } | { required: true }
      ? string
      : string | null;

/** A field's value as PostgreSQL returns it (DECIMAL as a string). */
type RowValue<F> = F extends { kind: "money"; required: true }
  ? string
  : F extends { kind: "money" }
    ? string | null
    : F extends { kind: "rating" }
      ? string | number
      : JsonValue<F>;

/** A field's value once the input rules accepted it (money in cents, an optional field absent as null). */
type InputValue<F> = F extends { kind: "money"; required: true }
  ? number
  : F extends { kind: "money" }
    ? number | null
    : JsonValue<F>;

/**
 * A product as pages and the JSON API show it (SPEC §3 field names). Money is
 * numbers with two decimals at most; `salePrice` is 0 when the product is not
 * on sale, so that "salePrice > 0 means on sale" holds for every client.
 * `variants` are its sizes and colours in display order (API.md); `price`
 * and `salePrice` are its cheapest variant's, `totalStock` their sum.
 */
export type ProductJson = { [K in ProductFieldName as JsonKey<K>]: JsonValue<Fields[K]> } & {
  variants: VariantJson[];
  images: ProductImageJson[];
};

/** A product row, keyed by field name: the product's own values (its own price, not its variants'). */
export type ProductRow = { [K in ProductFieldName]: RowValue<Fields[K]> };

/** A product as the catalogue's reads select it (`productColumnsSql`): its row, its variants and its pictures. */
export type ProductReadRow = ProductRow & { variants: VariantJson[]; images: ProductImageJson[] };

/** A validated product input: money in cents, no sale as null. */
export type ProductInput = { [K in EditableFieldName]: InputValue<Fields[K]> };

/** The columns' values (by attribute name) that an admin's input writes. */
type ProductColumns = { [K in EditableFieldName]: ProductRow[K] };

/** The values a form shows: strings, as inputs hold them. */
export type ProductFormValues = Record<EditableFieldName, string>;

const entries = Object.entries(PRODUCT_FIELDS) as [ProductFieldName, ProductField][];

/** Every field with its definition, in the table's order (the form's and the JSON's order). */
export const PRODUCT_FIELD_LIST: readonly (ProductField & { name: ProductFieldName })[] = entries.map(
  ([name, field]) => ({ ...field, name }),
);

export const EDITABLE_PRODUCT_FIELDS = PRODUCT_FIELD_LIST.filter(
  (field): field is ProductField & { name: EditableFieldName } => !field.readOnly,
);

/** "Sale Price" → "Sale price": how messages name a field. */
export function fieldNameInText(field: { label: string }): string {
  return field.label.charAt(0) + field.label.slice(1).toLowerCase();
}

/**
 * A variant's price and sale price as SQL over its row `variant` and its
 * product's row `product`: its own pair, or the product's pair when it has no
 * price of its own (a NULL sale price: not on sale). Every read of a
 * variant's price goes through here.
 */
export function variantPriceSql(variant: string, product: string): { price: string; salePrice: string } {
  return {
    price: `coalesce(${variant}.price, ${product}.price)`,
    salePrice: `CASE WHEN ${variant}.price IS NULL THEN ${product}.sale_price ELSE ${variant}.sale_price END`,
  };
}

/** The product's variants as JSON (VariantJson), in display order, each with its price pair. */
function variantsJsonSql(alias: string): string {
  const priced = variantPriceSql("v", alias);
  return `(SELECT coalesce(json_agg(json_build_object(
            '_id', v.id, 'sku', v.sku, 'size', v.size, 'colour', v.colour, 'totalStock', v.total_stock,
            'price', ${priced.price}, 'salePrice', coalesce(${priced.salePrice}, 0)
          ) ORDER BY v.position, v.id), '[]'::json)
       FROM product_variants v WHERE v.product_id = ${alias}.id)`;
}

/** An upload's key at the end of its URL (a UUID and an extension), as SQL's `substring` takes it. */
const UPLOAD_KEY_PATTERN = "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.[a-z0-9]{2,5})$";

/**
 * The product's gallery as JSON (ProductImageJson), in order. An upload's size
 * is the pipeline's (`uploaded_images`); a product without gallery rows shows
 * its `image` alone.
 */
function imagesJsonSql(alias: string): string {
  const picture = (url: string, alt: string, width: string, height: string, colour: string) =>
    `json_build_object('url', ${url}, 'alt', ${alt}, 'width', ${width}, 'height', ${height}, 'colour', ${colour})`;
  return `(SELECT coalesce(
            json_agg(${picture("i.url", "i.alt", "coalesce(u.width, i.width)", "coalesce(u.height, i.height)", "i.colour")}
                     ORDER BY i.position),
            (SELECT json_build_array(${picture(`${alias}.image`, "''", "fu.width", "fu.height", "NULL")})
               FROM (SELECT NULL) AS one
               LEFT JOIN uploaded_images fu ON fu.key = substring(${alias}.image from '${UPLOAD_KEY_PATTERN}')))
       FROM product_images i LEFT JOIN uploaded_images u ON u.key = i.upload_key
      WHERE i.product_id = ${alias}.id)`;
}

/** `alias.column AS "name"`, …, the variants and the pictures: the SELECT list that reads a ProductReadRow. */
export function productColumnsSql(alias: string): string {
  return [
    ...PRODUCT_FIELD_LIST.map((field) => `${alias}.${field.column} AS "${field.name}"`),
    `${variantsJsonSql(alias)} AS "variants"`,
    `${imagesJsonSql(alias)} AS "images"`,
  ].join(", ");
}

function jsonKeyOf(field: ProductField & { name: ProductFieldName }): string {
  return field.kind === "id" ? field.json : field.name;
}

function jsonValue(field: ProductField, value: unknown): unknown {
  switch (field.kind) {
    case "money":
      return decimalToNumber(value as string | null);
    case "rating":
      return Number(value);
    case "text":
      return value ?? null;
    default:
      return value;
  }
}

/** Each field's JSON name and row name with its field, worked out once: every product of every page goes through here. */
const JSON_FIELDS = PRODUCT_FIELD_LIST.map((field) => ({ key: jsonKeyOf(field), name: field.name, field }));

function rowJson(row: ProductRow): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const { key, name, field } of JSON_FIELDS) json[key] = jsonValue(field, row[name]);
  return json;
}

/** A product's fields as JSON names them, with its own (not its variants') price. */
export function productRowJson(row: ProductRow): Omit<ProductJson, "variants" | "images"> {
  return rowJson(row) as Omit<ProductJson, "variants" | "images">;
}

export function toProductJson(row: ProductReadRow): ProductJson {
  const json = rowJson(row);
  const cheapest = cheapestVariant(row.variants);
  if (cheapest) {
    json.price = cheapest.price;
    json.salePrice = cheapest.salePrice;
  }
  json.variants = row.variants;
  json.images = row.images;
  return json as ProductJson;
}

/** The columns' values (by attribute name) of a validated input: cents back to DECIMAL strings. */
export function toProductColumns(input: ProductInput): ProductColumns {
  const columns = {} as Record<EditableFieldName, unknown>;
  for (const field of EDITABLE_PRODUCT_FIELDS) {
    const value = input[field.name];
    columns[field.name] = field.kind === "money" && typeof value === "number" ? centsToDecimal(value) : value;
  }
  return columns as ProductColumns;
}

/** A product's editable values as JSON names them (its own price): the base that a partial update changes. */
export function editableValuesOf(
  product: Omit<ProductJson, "variants" | "images">,
): Record<EditableFieldName, unknown> {
  const values = {} as Record<EditableFieldName, unknown>;
  for (const field of EDITABLE_PRODUCT_FIELDS) values[field.name] = product[field.name];
  return values;
}

/** The form's values for a new product: every input empty. */
export const EMPTY_PRODUCT_FORM = Object.fromEntries(
  EDITABLE_PRODUCT_FIELDS.map((field) => [field.name, ""]),
) as ProductFormValues;

/** The form's values for an existing product. An optional amount that is absent shows as "0". */
export function toProductFormValues(product: Omit<ProductJson, "variants" | "images">): ProductFormValues {
  const values = { ...EMPTY_PRODUCT_FORM };
  for (const field of EDITABLE_PRODUCT_FIELDS) {
    const value = product[field.name];
    if (field.kind === "money")
      values[field.name] = (value as number) > 0 ? (value as number).toFixed(2) : "0";
    else values[field.name] = value === null ? "" : String(value);
  }
  return values;
}

/** The facts the details list under the description (label and value), those with a value. */
export function productFacts(product: ProductJson): { label: string; value: string }[] {
  return PRODUCT_FIELD_LIST.filter((field) => field.inDetails)
    .map((field) => ({ label: field.label, value: product[field.name as keyof ProductJson] }))
    .filter(
      (fact): fact is { label: string; value: string } => typeof fact.value === "string" && fact.value !== "",
    );
}

export type { Brand, Category };
