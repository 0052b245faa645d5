import type { ShouldRevalidateFunction } from "react-router";

/**
 * The page's data is read again after every form it posts, refused ones too. React Router skips the
 * reload after an action answered 4xx or 5xx (nothing changed, it assumes), but the shop's refusals are
 * often news that something did change: a return moved by another admin (409), stock sold meanwhile, a
 * product saved by someone else. The page shows the refusal beside what is true now, with or without
 * JavaScript (without it the whole page renders again anyway). Every route with a loader exports this as its
 * `shouldRevalidate`.
 */
export const revalidateAfterRefusal: ShouldRevalidateFunction = ({
  actionStatus,
  defaultShouldRevalidate,
}) => (actionStatus !== undefined && actionStatus >= 400 ? true : defaultShouldRevalidate);
