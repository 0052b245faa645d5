import type { ProductJson } from "./product";
import { choiceOf, LOW_STOCK_THRESHOLD, VARIANT_TEXT, type VariantChoice } from "./variants";

/**
 * How a product presents itself on cards and in the details (SPEC §9). Pure
 * functions of the product: safe to import in the browser.
 */

interface BadgeInput {
  totalStock: number;
  salePrice: number;
}

interface ProductBadge {
  label: string;
  tone: "danger" | "warning" | "sale";
}

/** One badge, the most urgent first: out of stock, then low stock, then sale. */
export function productBadge(product: BadgeInput): ProductBadge | null {
  if (product.totalStock <= 0) return { label: "Out Of Stock", tone: "danger" };
  if (product.totalStock < LOW_STOCK_THRESHOLD) {
    return { label: `Only ${product.totalStock} items left`, tone: "warning" };
  }
  if (product.salePrice > 0) return { label: "Sale", tone: "sale" };
  return null;
}

/** The price a shopper pays: the sale price when above 0, otherwise the price. */
export function payablePrice(product: { price: number; salePrice: number }): number {
  return product.salePrice > 0 ? product.salePrice : product.price;
}

/** "4.5" → "4.50": the average rating always shows two decimals. */
export function formatRating(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}

export type { ProductJson } from "./product";

/**
 * What a product card needs: `choice` says whether the shopper must pick a
 * size or colour first ("Choose size" instead of "Add to cart"); the card
 * carries that instead of the variants, which a grid of 24 does not need.
 */
export type ProductCardData = Pick<
  ProductJson,
  "_id" | "image" | "title" | "category" | "brand" | "price" | "salePrice" | "totalStock"
> & {
  choice: VariantChoice;
  /** The first picture's own size (`images[0]`, whose URL is `image`): the card's srcset and box. */
  imageWidth: number | null;
  imageHeight: number | null;
};

export function toCardData(product: ProductJson): ProductCardData {
  return {
    choice: choiceOf(product.variants),
    _id: product._id,
    image: product.image,
    imageWidth: product.images[0]?.width ?? null,
    imageHeight: product.images[0]?.height ?? null,
    title: product.title,
    category: product.category,
    brand: product.brand,
    price: product.price,
    salePrice: product.salePrice,
    totalStock: product.totalStock,
  };
}

/**
 * The query parameter that brings a refused "Add to cart" back to its page
 * (`?choose=PRODUCT_ID`): the page then shows "Please choose a size" beside
 * that product's picker, with or without JavaScript.
 */
export const CHOOSE_VARIANT_PARAM = "choose";

/** Whether a refusal asks the shopper to choose a size or colour (the service's message, lib/shared/variants.ts). */
export function isChooseRefusal(message: string): boolean {
  return message === VARIANT_TEXT.chooseSize || message === VARIANT_TEXT.chooseColour;
}
