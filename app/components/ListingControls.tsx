import { useNavigate } from "react-router";
import { useKept } from "~/lib/shared/server-markup";
import type { FormEvent, MouseEvent } from "react";
import {
  BRAND_LABELS,
  BRANDS,
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_SORT,
  SORT_OPTIONS,
  type Category,
} from "~/lib/shared/catalog-options";
import {
  listingHref,
  NO_FILTERS,
  pageWindow,
  parseListingState,
  toggleFilter,
  type ListingState,
} from "~/lib/shared/listing-params";
import { centsToDecimal, formatPrice } from "~/lib/shared/money";
import {
  colourLabel,
  COLOURS,
  sizeLabel,
  SIZE_SCALES,
  type OptionCounts,
  type SizeOption,
} from "~/lib/shared/variants";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { PlainLink } from "./PlainLink";

/** A size group of the filter: one scale, named after the categories that use it ("Men, Women"). */
interface SizeGroup {
  label: string;
  sizes: readonly SizeOption[];
}

/** The scales of the chosen categories (of all of them when none is chosen), each once. */
function sizeGroupsFor(categories: readonly Category[]): SizeGroup[] {
  const groups = new Map<readonly SizeOption[], Category[]>();
  for (const category of categories.length ? categories : CATEGORIES) {
    const scale = SIZE_SCALES[category];
    groups.set(scale, [...(groups.get(scale) ?? []), category]);
  }
  return [...groups].map(([sizes, owners]) => ({
    label: owners.map((category) => CATEGORY_LABELS[category]).join(", "),
    sizes,
  }));
}

/** "4 products" beside a filter value: how many products in stock it would show. */
function OptionCount({ count }: { count: number }) {
  return (
    <span className="filter-form__count">
      {count}
      <span className="visually-hidden">{count === 1 ? " product" : " products"}</span>
    </span>
  );
}

/** A dollar amount for a price input: "20", "49.9" → "49.90". */
function priceInputValue(cents: number | null): string {
  if (cents === null) return "";
  return cents % 100 === 0 ? String(cents / 100) : centsToDecimal(cents);
}

/**
 * The filter panel: category, brand, size and colour checkboxes (sizes and
 * colours with the number of products in stock beside each; a size or colour
 * that no product has is left out unless chosen), "In stock only" and a price
 * range, in a GET form to the listing, so that without JavaScript "Apply
 * filters" sends them (the loader turns repeated names into the canonical
 * comma-joined URL). With JavaScript every tick navigates at once to that URL,
 * and the form (the price range) goes to the canonical URL directly.
 */
export function FilterForm({ state, optionCounts }: { state: ListingState; optionCounts: OptionCounts }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const kept = useKept();
  const go = (next: Partial<ListingState>) => navigate(listingHref(next), { preventScrollReset: true });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string") params.append(name, value);
    }
    go(parseListingState(params));
  };
  // A plain form: with JavaScript its submit and every tick navigate through `go`, never by the form itself.
  const form = {
    method: "get",
    action: "/shop/listing",
    className: "filter-form",
    onSubmit: submit,
  } as const;
  // On the server the fields' markup is kept (they have no state); `go` follows a tick once scripts run.
  return <form {...form} {...kept(FilterFields, { state, optionCounts, hydrated }, { go })} />;
}

/** The filter form's fields, from their props alone; `go` follows a tick once scripts run. */
function FilterFields({
  state,
  optionCounts,
  hydrated,
  go,
}: {
  state: ListingState;
  optionCounts: OptionCounts;
  hydrated: boolean;
  go?: (next: Partial<ListingState>) => void;
}) {
  const groups = [
    { name: "category" as const, legend: "Category", values: CATEGORIES, labels: CATEGORY_LABELS },
    { name: "brand" as const, legend: "Brand", values: BRANDS, labels: BRAND_LABELS },
  ];
  const sizeCounts = new Map(optionCounts.size.map((entry) => [entry.value, entry.products]));
  const colourCounts = new Map(optionCounts.colour.map((entry) => [entry.value, entry.products]));
  const sizeGroups = sizeGroupsFor(state.category)
    .map((group) => ({
      ...group,
      sizes: group.sizes.filter((size) => sizeCounts.has(size.value) || state.size.includes(size.value)),
    }))
    .filter((group) => group.sizes.length > 0);
  const colours = COLOURS.filter(
    (colour) => colourCounts.has(colour.value) || state.colour.includes(colour.value),
  );
  const checkbox = (
    name: "size" | "colour",
    value: string,
    label: string,
    count: number,
    swatch?: string,
  ) => {
    const checked = state[name].includes(value);
    return (
      <label key={`${value}-${checked}`} className="filter-form__option">
        <input
          type="checkbox"
          name={name}
          value={value}
          defaultChecked={checked}
          onChange={() => go?.(toggleFilter(state, name, value))}
        />
        {swatch ? (
          <span className="filter-form__swatch" style={{ background: swatch }} aria-hidden="true" />
        ) : null}
        {label}
        <OptionCount count={count} />
      </label>
    );
  };
  return (
    <>
      {groups.map((group) => (
        <fieldset key={group.name} className="filter-form__group">
          <legend>{group.legend}</legend>
          {group.values.map((value) => {
            const checked = (state[group.name] as readonly string[]).includes(value);
            return (
              // Uncontrolled, and re-created when the URL's state changes: a tick shows at once,
              // and the checkbox always ends up agreeing with the URL.
              <label key={`${value}-${checked}`} className="filter-form__option">
                <input
                  type="checkbox"
                  name={group.name}
                  value={value}
                  defaultChecked={checked}
                  onChange={() => go?.(toggleFilter(state, group.name, value))}
                />
                {(group.labels as Record<string, string>)[value]}
              </label>
            );
          })}
        </fieldset>
      ))}
      {sizeGroups.length ? (
        <fieldset className="filter-form__group">
          <legend>Size</legend>
          {sizeGroups.map((group) => (
            <div
              key={group.label}
              className="filter-form__subgroup"
              role="group"
              aria-label={`${group.label} sizes`}
            >
              {sizeGroups.length > 1 ? (
                <p className="filter-form__subgroup-label" aria-hidden="true">
                  {group.label}
                </p>
              ) : null}
              {group.sizes.map((size) =>
                checkbox("size", size.value, sizeLabel(size.value), sizeCounts.get(size.value) ?? 0),
              )}
            </div>
          ))}
        </fieldset>
      ) : null}
      {colours.length ? (
        <fieldset className="filter-form__group">
          <legend>Colour</legend>
          {colours.map((colour) =>
            checkbox(
              "colour",
              colour.value,
              colour.label,
              colourCounts.get(colour.value) ?? 0,
              colour.swatch,
            ),
          )}
        </fieldset>
      ) : null}
      <fieldset className="filter-form__group">
        <legend>Availability</legend>
        <label key={`in-stock-${state.inStock}`} className="filter-form__option">
          <input
            type="checkbox"
            name="inStock"
            value="true"
            defaultChecked={state.inStock}
            onChange={() => go?.({ ...state, inStock: !state.inStock, page: 1 })}
          />
          In stock only
        </label>
      </fieldset>
      <fieldset className="filter-form__group filter-form__price">
        <legend>Price</legend>
        {/* Keyed by the URL's bounds, as the checkboxes are: the inputs always show what the page shows. */}
        <div key={`${state.minPrice}-${state.maxPrice}`} className="filter-form__price-inputs">
          <PriceBoundInput name="minPrice" label="Min ($)" cents={state.minPrice} />
          <PriceBoundInput name="maxPrice" label="Max ($)" cents={state.maxPrice} />
        </div>
        {hydrated ? (
          <button type="submit" className="sf-button">
            Apply price
          </button>
        ) : null}
      </fieldset>
      {state.sortBy !== DEFAULT_SORT ? <input type="hidden" name="sortBy" value={state.sortBy} /> : null}
      <div className="filter-form__actions">
        {hydrated ? null : (
          <button type="submit" className="sf-button sf-button--primary">
            Apply filters
          </button>
        )}
        {filterCount(state) > 0 ? (
          <PlainLink to={listingHref({ ...NO_FILTERS, sortBy: state.sortBy })} className="sf-link" keepScroll>
            Clear filters
          </PlainLink>
        ) : null}
      </div>
    </>
  );
}

/** The selected filters as links that remove them. */
export function ActiveFilters({ state }: { state: ListingState }) {
  const without = (change: Partial<ListingState>) => listingHref({ ...state, ...change, page: 1 });
  const chips = [
    ...state.category.map((value) => ({
      key: `category-${value}`,
      label: CATEGORY_LABELS[value],
      href: listingHref(toggleFilter(state, "category", value)),
    })),
    ...state.brand.map((value) => ({
      key: `brand-${value}`,
      label: BRAND_LABELS[value],
      href: listingHref(toggleFilter(state, "brand", value)),
    })),
    ...state.size.map((value) => ({
      key: `size-${value}`,
      label: `Size ${sizeLabel(value)}`,
      href: listingHref(toggleFilter(state, "size", value)),
    })),
    ...state.colour.map((value) => ({
      key: `colour-${value}`,
      label: colourLabel(value),
      href: listingHref(toggleFilter(state, "colour", value)),
    })),
    ...(state.inStock ? [{ key: "inStock", label: "In stock only", href: without({ inStock: false }) }] : []),
    ...(state.minPrice !== null
      ? [
          {
            key: "minPrice",
            label: `From ${formatPrice(state.minPrice / 100)}`,
            href: without({ minPrice: null }),
          },
        ]
      : []),
    ...(state.maxPrice !== null
      ? [
          {
            key: "maxPrice",
            label: `Up to ${formatPrice(state.maxPrice / 100)}`,
            href: without({ maxPrice: null }),
          },
        ]
      : []),
  ];
  if (!chips.length) return null;
  return (
    <ul className="active-filters" aria-label="Selected filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <PlainLink
            to={chip.href}
            className="filter-chip"
            keepScroll
            aria-label={`Remove filter ${chip.label}`}
          >
            {chip.label} <span aria-hidden="true">×</span>
          </PlainLink>
        </li>
      ))}
    </ul>
  );
}

/** Closes the <details> that holds the clicked link (menus stay open across client navigations). */
function closeDetails(event: MouseEvent<HTMLElement>) {
  event.currentTarget.closest("details")?.removeAttribute("open");
}

/** "Sort by": a disclosure with one link per option (the URL keeps the filters, back to page 1). */
export function SortMenu({ state, hrefFor }: { state: ListingState; hrefFor?: (sortBy: string) => string }) {
  const current = SORT_OPTIONS.find((option) => option.id === state.sortBy) ?? SORT_OPTIONS[0];
  return (
    <details className="sort-menu">
      <summary className="sf-button">
        <span className="sort-menu__label">Sort by:</span> {current.label}
      </summary>
      <ul className="sort-menu__list">
        {SORT_OPTIONS.map((option) => (
          <li key={option.id}>
            <PlainLink
              to={hrefFor ? hrefFor(option.id) : listingHref({ ...state, sortBy: option.id, page: 1 })}
              className="sort-menu__option"
              aria-current={option.id === state.sortBy ? "true" : undefined}
              keepScroll
              onClick={closeDetails}
            >
              {option.label}
            </PlainLink>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Previous, numbered and next page links. */
export function Pagination({
  page,
  pages,
  hrefFor,
}: {
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      {page > 1 ? (
        <PlainLink to={hrefFor(page - 1)} className="pagination__link" rel="prev">
          Previous
        </PlainLink>
      ) : (
        <span className="pagination__link pagination__link--disabled" aria-hidden="true">
          Previous
        </span>
      )}
      {pageWindow(Math.min(page, pages), pages).map((item, index) =>
        item === "gap" ? (
          <span key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <PlainLink
            key={item}
            to={hrefFor(item)}
            className="pagination__link"
            aria-current={item === page ? "page" : undefined}
            aria-label={`Page ${item}`}
          >
            {item}
          </PlainLink>
        ),
      )}
      {page < pages ? (
        <PlainLink to={hrefFor(page + 1)} className="pagination__link" rel="next">
          Next
        </PlainLink>
      ) : (
        <span className="pagination__link pagination__link--disabled" aria-hidden="true">
          Next
        </span>
      )}
    </nav>
  );
}

/** How many filters apply: the number on the phone's "Filters" button. */
export function filterCount(state: ListingState): number {
  return (
    state.category.length +
    state.brand.length +
    state.size.length +
    state.colour.length +
    (state.inStock ? 1 : 0) +
    (state.minPrice !== null ? 1 : 0) +
    (state.maxPrice !== null ? 1 : 0)
  );
}

/** One end of the price filter: an amount in dollars, empty when the URL sets no bound. */
function PriceBoundInput({
  name,
  label,
  cents,
}: {
  name: "minPrice" | "maxPrice";
  label: string;
  cents: number | null;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        name={name}
        min={0}
        step="0.01"
        inputMode="decimal"
        defaultValue={priceInputValue(cents)}
        className="sf-input"
      />
    </label>
  );
}
