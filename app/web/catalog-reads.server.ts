import { readUntilCatalogueChanges } from "~/models/read-cache.server";
import {
  listFeatureImages,
  listFeatureProducts,
  listProducts,
  type ListingInput,
} from "~/services/catalog.server";
import { searchProducts, searchWords } from "~/services/catalog-search.server";
import type { Paging } from "~/lib/shared/paging";
import { toCardData } from "~/lib/shared/product-display";
import type { Pagination } from "~/lib/shared/paging";
import type { ProductJson } from "~/lib/shared/product";

/**
 * The storefront's catalogue reads that every shopper asks alike (the listing's page of cards and its filter
 * counts, a search's page of cards, the start page's banner and feature products), kept until the catalogue
 * changes (app/models/read-cache.server.ts): browsing costs one tiny statement instead of the catalogue's queries
 * and their conversion, carts and checkouts beside it change nothing kept, and an admin's change, a sale's stock
 * or an import shows on the next request.
 */

/** A listing page as its route shows it: the product cards, the paging and the size and colour counts. */
export function listingCards(input: ListingInput) {
  return readUntilCatalogueChanges(`listing-cards ${JSON.stringify(input)}`, async () => {
    const page = await listProducts(input, { optionCounts: true });
    return {
      products: page.products.map(toCardData),
      pagination: page.pagination,
      optionCounts: page.optionCounts,
    };
  });
}

/**
 * A page of the search page's results as cards with their paging, kept under the keyword's words (what the
 * search itself reads of it), so that "Shirt" and "shirt " share one read.
 */
export function searchCards(keyword: string, paging: Paging) {
  return readUntilCatalogueChanges(
    `search-cards ${JSON.stringify([searchWords(keyword), paging.page, paging.limit])}`,
    async () => {
      const { products, pagination } = await searchProducts(keyword, paging);
      return { products: products.map(toCardData), pagination };
    },
  );
}

/** The start page's banner pictures and the cards of its first `count` products. */
export function homeCatalogue(count: number) {
  return readUntilCatalogueChanges(`home ${count}`, async () => {
    const [featureImages, products] = await Promise.all([listFeatureImages(), listFeatureProducts(count)]);
    return { featureImages, products: products.map(toCardData) };
  });
}

/** `listProducts` for the JSON API, as `answer` turns it into the body's bytes. */
export function apiProductPage(
  input: ListingInput,
  answer: (page: { products: ProductJson[]; pagination: Pagination }) => Uint8Array<ArrayBuffer>,
) {
  return readUntilCatalogueChanges(`api-products ${JSON.stringify(input)}`, async () =>
    answer(await listProducts(input)),
  );
}
