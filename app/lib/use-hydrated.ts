import { useEffect, useState } from "react";

/**
 * False on the server and during hydration, true afterwards: lets a component
 * render the no-JavaScript version first (so the HTML matches) and switch to
 * the enhanced one once scripts run.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
