import { Form, useNavigate } from "@remix-run/react";
import type { MouseEvent } from "react";
import {
  BRAND_LABELS,
  BRANDS,
  CATEGORIES,
  CATEGORY_LABELS,
  DEFAULT_SORT,
  SORT_OPTIONS,
} from "~/lib/shared/catalog-options";
import { listingHref, pageWindow, toggleFilter, type ListingState } from "~/lib/shared/listing-params";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { PlainLink } from "./PlainLink";

/**
 * The filter panel: category and brand checkboxes in a GET form to the
 * listing, so that without JavaScript "Apply filters" sends them (the loader
 * turns repeated names into the canonical comma-joined URL). With
 * JavaScript every tick navigates at once to that URL.
 */
export function FilterForm({ state, idPrefix }: { state: ListingState; idPrefix: string }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const groups = [
    { name: "category" as const, legend: "Category", values: CATEGORIES, labels: CATEGORY_LABELS },
    { name: "brand" as const, legend: "Brand", values: BRANDS, labels: BRAND_LABELS },
  ];
  return (
    <Form method="get" action="/shop/listing" className="filter-form">
      {groups.map((group) => (
        <fieldset key={group.name} className="filter-form__group">
          <legend>{group.legend}</legend>
          {group.values.map((value) => {
            const id = `${idPrefix}-${group.name}-${value.replace(/[^a-z0-9]/g, "")}`;
            const checked = (state[group.name] as readonly string[]).includes(value);
            return (
              // Uncontrolled, and re-created when the URL's state changes: a tick shows at once,
              // and the checkbox always ends up agreeing with the URL.
              <div key={`${value}-${checked}`} className="filter-form__option">
                <input
                  type="checkbox"
                  id={id}
                  name={group.name}
                  value={value}
                  defaultChecked={checked}
                  onChange={() =>
                    navigate(listingHref(toggleFilter(state, group.name, value)), {
                      preventScrollReset: true,
                    })
                  }
                />
                <label htmlFor={id}>{(group.labels as Record<string, string>)[value]}</label>
              </div>
            );
          })}
        </fieldset>
      ))}
      {state.sortBy !== DEFAULT_SORT ? <input type="hidden" name="sortBy" value={state.sortBy} /> : null}
      <div className="filter-form__actions">
        {hydrated ? null : (
          <button type="submit" className="sf-button sf-button--primary">
            Apply filters
          </button>
        )}
        {state.category.length || state.brand.length ? (
          <PlainLink to={listingHref({ sortBy: state.sortBy })} className="sf-link" keepScroll>
            Clear filters
          </PlainLink>
        ) : null}
      </div>
    </Form>
  );
}

/** The selected filters as links that remove them. */
export function ActiveFilters({ state }: { state: ListingState }) {
  const chips = [
    ...state.category.map((value) => ({ name: "category" as const, value, label: CATEGORY_LABELS[value] })),
    ...state.brand.map((value) => ({ name: "brand" as const, value, label: BRAND_LABELS[value] })),
  ];
  if (!chips.length) return null;
  return (
    <ul className="active-filters" aria-label="Selected filters">
      {chips.map((chip) => (
        <li key={`${chip.name}-${chip.value}`}>
          <PlainLink
            to={listingHref(toggleFilter(state, chip.name, chip.value))}
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

/** A filter sheet for small screens: a <details> that opens without JavaScript. */
export function FilterSheet({ state }: { state: ListingState }) {
  const count = state.category.length + state.brand.length;
  return (
    <details className="filter-sheet">
      <summary className="sf-button">
        Filters{count ? <span className="filter-sheet__count"> ({count})</span> : null}
      </summary>
      <div className="filter-sheet__panel">
        <FilterForm state={state} idPrefix="sheet" />
      </div>
    </details>
  );
}
