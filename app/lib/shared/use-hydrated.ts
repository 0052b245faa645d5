import { useEffect, useState } from "react";

let hydratedOnce = false;

/**
 * False while the server renders and during hydration, true afterwards. Lets a
 * component render plain HTML that works without JavaScript first, then
 * enhance it (Mantine overlays render in portals only in the browser).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
