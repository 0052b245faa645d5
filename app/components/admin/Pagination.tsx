import { Link } from "react-router";

interface PaginationProps {
  page: number;
  pages: number;
  /** The URL of a page, keeping the other search params. */
  hrefFor: (page: number) => string;
  label: string;
}

/** Previous and next links with the position: real links, so paging works without JavaScript. */
export function Pagination({ page, pages, hrefFor, label }: PaginationProps) {
  if (pages <= 1) return null;
  return (
    <nav className="admin-pagination" aria-label={label}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className="admin-btn">
          Previous
        </Link>
      ) : (
        <span className="admin-btn" aria-disabled="true">
          Previous
        </span>
      )}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} rel="next" className="admin-btn">
          Next
        </Link>
      ) : (
        <span className="admin-btn" aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}

/** `pathname` with `base`'s search params and `changes` applied: null or "" removes a param. */
export function withParams(
  pathname: string,
  base: URLSearchParams,
  changes: Record<string, string | number | null>,
): string {
  const next = new URLSearchParams(base);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") next.delete(key);
    else next.set(key, String(value));
  }
  const text = next.toString();
  return text ? `${pathname}?${text}` : pathname;
}
