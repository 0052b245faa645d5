import { readUntilWrite } from "~/models/read-cache.server";
import {
  listFeatureImages,
  listFeatureProducts,
  listProducts,
  type ListingInput,
} from "~/services/catalog.server";
import { toCardData } from "~/lib/shared/product-display";
import type { Pagination } from "~/lib/shared/paging";
import type { ProductJson } from "~/lib/shared/product";

/**
 * The storefront's catalogue reads that every shopper asks alike (the listing's page of cards and its filter
 * counts, the start page's banner and feature products), kept until the database changes
 * (app/models/read-cache.server.ts): browsing costs one tiny statement instead of the catalogue's queries and
 * their conversion, and an admin's change, a sale or an import shows on the next request.
 */

/** A listing page as its route shows it: the product cards, the paging and the size and colour counts. */
export function listingCards(input: ListingInput) {
  return readUntilWrite(`listing-cards ${JSON.stringify(input)}`, async () => {
    const page = await listProducts(input, { optionCounts: true });
    return {
      products: page.products.map(toCardData),
      pagination: page.pagination,
      optionCounts: page.optionCounts,
    };
  });
}

/** The start page's banner pictures and the cards of its first `count` products. */
export function homeCatalogue(count: number) {
  return readUntilWrite(`home ${count}`, async () => {
    const [featureImages, products] = await Promise.all([listFeatureImages(), listFeatureProducts(count)]);
    return { featureImages, products: products.map(toCardData) };
  });
}

/** `listProducts` for the JSON API, as `answer` turns it into the body's bytes. */
export function apiProductPage(
  input: ListingInput,
  answer: (page: { products: ProductJson[]; pagination: Pagination }) => Uint8Array<ArrayBuffer>,
) {
  return readUntilWrite(`api-products ${JSON.stringify(input)}`, async () =>
    answer(await listProducts(input)),
  );
}
