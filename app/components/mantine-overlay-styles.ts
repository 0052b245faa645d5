import overlayStylesHref from "~/styles/mantine-overlays.css";

let stylesLoaded: Promise<void> | undefined;

/**
 * Loads Mantine's styles for the Drawer, Modal and notifications (once per
 * page load) and resolves when they apply. The storefront's HTML links none of
 * Mantine's component styles (issue 10: they held up its first paint); the
 * cart drawer, the product dialog's modal and the notifications are loaded on
 * first use, and wait for these styles as they wait for their code, so that
 * they never show unstyled. The link goes before the page's stylesheets, where
 * Mantine's styles have always been, so that the shop's rules still override
 * Mantine's. React does not manage it, so navigations keep it. A failed load
 * resolves too: an unstyled overlay beats one that never opens.
 */
export function loadMantineOverlayStyles(): Promise<void> {
  stylesLoaded ??= new Promise<void>((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = overlayStylesHref;
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    document.head.insertBefore(link, document.head.querySelector('link[rel="stylesheet"]'));
  });
  return stylesLoaded;
}

/** A module loaded on demand that renders Mantine overlays, resolved once its styles apply as well. */
export function withMantineOverlayStyles<T>(loading: Promise<T>): Promise<T> {
  return Promise.all([loading, loadMantineOverlayStyles()]).then(([module]) => module);
}
