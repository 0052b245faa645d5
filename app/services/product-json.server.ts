import type { Brand, Category } from "~/lib/shared/catalog-options";
import { decimalToNumber } from "~/lib/shared/money";
import type { ProductJson } from "~/lib/shared/product-display";

export type { ProductJson } from "~/lib/shared/product-display";

/** The columns a product read needs (list them: `raw: true` reads stay light). */
export const PRODUCT_ATTRIBUTES = [
  "id",
  "image",
  "title",
  "description",
  "category",
  "brand",
  "price",
  "salePrice",
  "totalStock",
  "averageReview",
] as const;

export interface ProductRow {
  id: string;
  image: string;
  title: string;
  description: string;
  category: Category;
  brand: Brand;
  price: string;
  salePrice: string | null;
  totalStock: number;
  averageReview: string | number;
}

export function toProductJson(row: ProductRow): ProductJson {
  return {
    _id: row.id,
    image: row.image,
    title: row.title,
    description: row.description,
    category: row.category,
    brand: row.brand,
    price: decimalToNumber(row.price),
    salePrice: decimalToNumber(row.salePrice),
    totalStock: row.totalStock,
    averageReview: Number(row.averageReview),
  };
}
