import type { CSSProperties } from "react";
import { formatRating } from "~/lib/shared/product-display";

/**
 * A read-only row of five stars filled to `value` (0 to 5, fractions too):
 * one element whose CSS mask draws the stars, so fifty reviews stay light.
 */
export function StarRating({ value, size = "md" }: { value: number; size?: "sm" | "md" }) {
  const clamped = Math.max(0, Math.min(5, value));
  return (
    <span
      className={`star-rating star-rating--${size}`}
      role="img"
      aria-label={`Rated ${formatRating(clamped)} out of 5`}
      style={{ "--rating": `${(clamped / 5) * 100}%` } as CSSProperties}
    />
  );
}

/**
 * The star picker of "Write a review": five radio inputs (so it works without
 * JavaScript and with the keyboard's arrow keys), drawn as stars.
 */
export function StarPicker({
  name,
  defaultValue,
  errorId,
  invalid,
}: {
  name: string;
  defaultValue?: number;
  errorId?: string;
  invalid?: boolean;
}) {
  return (
    <fieldset className="star-picker" aria-describedby={invalid ? errorId : undefined}>
      <legend className="star-picker__legend">Your rating</legend>
      <div className="star-picker__options">
        {[1, 2, 3, 4, 5].map((stars) => (
          <label key={stars} className="star-picker__option">
            <input
              type="radio"
              name={name}
              value={stars}
              defaultChecked={defaultValue === stars}
              className="visually-hidden"
            />
            <span aria-hidden="true" className="star-picker__star" />
            <span className="visually-hidden">
              {stars} {stars === 1 ? "star" : "stars"}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
