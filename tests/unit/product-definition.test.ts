import { Sequelize } from "sequelize";
import { describe, expect, it } from "vitest";
import {
  EDITABLE_PRODUCT_FIELDS,
  EMPTY_PRODUCT_FORM,
  PRODUCT_FIELD_LIST,
  productColumnsSql,
  productFacts,
  toProductColumns,
  toProductFormValues,
  toProductJson,
  type ProductJson,
  type ProductReadRow,
} from "../../app/lib/shared/product";
import { productInputSchema } from "../../app/lib/shared/product-schema";
import { defineModels } from "../../app/models/index.server";
import { productSchema } from "../../app/web/openapi/schemas.server";

/**
 * The product is defined once (lib/shared/product.ts); the model, the
 * catalogue's SQL, the JSON, the input rules, the OpenAPI schema and the
 * admin form derive from it. These tests hold every derivation to the whole
 * table, so that a field added to it cannot be missing from one of them.
 */

const jsonKeyOf = (field: (typeof PRODUCT_FIELD_LIST)[number]) =>
  field.kind === "id" ? field.json : field.name;
const editableNames = EDITABLE_PRODUCT_FIELDS.map((field) => field.name);

const row: ProductReadRow = {
  variants: [
    {
      _id: "5d1f0c2e-2b7e-4a43-8d2a-6a0e6f3b9c01",
      sku: "NIKE-100001",
      size: null,
      colour: null,
      totalStock: 12,
      price: 25,
      salePrice: 0,
    },
  ],
  id: "0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10",
  image: "/images/products/tee.svg",
  title: "Organic Tee",
  description: "Soft",
  category: "men",
  brand: "nike",
  material: "100% organic cotton",
  price: "25.00",
  salePrice: null,
  totalStock: 12,
  averageReview: "4.50",
  images: [{ url: "/images/products/tee.svg", alt: "", width: 600, height: 600, colour: null }],
  version: 3,
};

describe("the product definition", () => {
  it("gives the model every field, each on its own column", () => {
    const { Product } = defineModels(new Sequelize("postgres://localhost:1/none", { logging: false }));
    const attributes = Product.getAttributes();
    for (const field of PRODUCT_FIELD_LIST) {
      expect(attributes[field.name as keyof typeof attributes]?.field, field.name).toBe(field.column);
    }
  });

  it("selects every field under its name in the catalogue's reads", () => {
    const sql = productColumnsSql("p");
    for (const field of PRODUCT_FIELD_LIST) expect(sql).toContain(`p.${field.column} AS "${field.name}"`);
  });

  it("shows every field in JSON under its JSON name: money as numbers, no sale as 0, a missing text as null", () => {
    const json = toProductJson({ ...row, material: null });
    expect(Object.keys(json)).toEqual([...PRODUCT_FIELD_LIST.map(jsonKeyOf), "variants", "images"]);
    expect(json).toMatchObject({ _id: row.id, price: 25, salePrice: 0, averageReview: 4.5, material: null });
  });

  it("takes input for exactly the fields an admin enters, and documents every field's output", () => {
    expect(Object.keys(productInputSchema.shape)).toEqual(editableNames);
    expect(Object.keys(productSchema.shape)).toEqual([
      ...PRODUCT_FIELD_LIST.map(jsonKeyOf),
      "variants",
      "images",
    ]);
  });

  it("names a field in its messages by its label in sentence case", () => {
    const parsed = productInputSchema.safeParse({});
    expect(parsed.success).toBe(false);
    const messages = Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
    );
    expect(messages).toMatchObject({
      title: "Title is required",
      price: "Price is required",
      totalStock: "Total stock is required",
      category: "Category is required",
    });
    expect(messages).not.toHaveProperty("material");
    expect(messages).not.toHaveProperty("salePrice");
  });

  it("turns validated input back into columns: cents into DECIMAL strings, an absent sale price into NULL", () => {
    const input = productInputSchema.parse({ ...toProductJson(row), salePrice: "", material: " Wool " });
    expect(toProductColumns(input)).toEqual({
      image: row.image,
      title: "Organic Tee",
      description: "Soft",
      category: "men",
      brand: "nike",
      material: "Wool",
      price: "25.00",
      salePrice: null,
      totalStock: 12,
    });
  });

  it("fills the admin form: every editable field empty for a new product, the values as text for an existing one", () => {
    expect(Object.keys(EMPTY_PRODUCT_FORM)).toEqual(editableNames);
    expect(Object.values(EMPTY_PRODUCT_FORM).every((value) => value === "")).toBe(true);
    const product: ProductJson = toProductJson({ ...row, material: null });
    expect(toProductFormValues(product)).toEqual({
      image: row.image,
      title: "Organic Tee",
      description: "Soft",
      category: "men",
      brand: "nike",
      material: "",
      price: "25.00",
      salePrice: "0",
      totalStock: "12",
    });
  });

  it("lists the facts the details show only when the product has them", () => {
    expect(productFacts(toProductJson(row))).toEqual([{ label: "Material", value: "100% organic cotton" }]);
    expect(productFacts(toProductJson({ ...row, material: null }))).toEqual([]);
  });
});
