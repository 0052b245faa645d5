import { useLocation, useNavigation } from "react-router";
import {
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useState,
  type MouseEvent,
  type ReactNode,
} from "react";
import { createAppContext } from "~/lib/shared/app-contexts";
import type * as CartDrawerPanelModule from "./CartDrawerPanel";
import { withMantineOverlayStyles } from "./FlashToast";
import { isModifiedClick, PlainLink } from "./PlainLink";
import type { ShopCart } from "./useShopCart";

let panelLoading: Promise<typeof CartDrawerPanelModule> | undefined;

/** The drawer's code and styles, fetched once: on the first sign of intent, or on the first opening. */
function loadCartDrawerPanel() {
  panelLoading ??= withMantineOverlayStyles(import("./CartDrawerPanel")).catch((error: unknown) => {
    // A failed fetch (the network dropped) is tried again on the next intent or opening.
    panelLoading = undefined;
    throw error;
  });
  return panelLoading;
}

/** Starts fetching the drawer when the pointer or the focus reaches the cart button, so that a click finds it there. */
function preloadCartDrawer() {
  loadCartDrawerPanel().catch(() => undefined);
}

const CartDrawerPanel = lazy(loadCartDrawerPanel);

/**
 * The cart side panel (SPEC §2 Shop header): with JavaScript the header's cart
 * link opens a drawer titled "Your Cart"; without it the same link goes to
 * /shop/cart, which shows the same contents. One drawer for the whole shop,
 * whichever header (bar or mobile sheet) opened it. The drawer's code and
 * Mantine's styles for it are loaded when the cart is first opened.
 */

const CartDrawerContext = createAppContext<(() => void) | null>(null);

export function CartDrawerProvider({ cart, children }: { cart: ShopCart; children: ReactNode }) {
  const location = useLocation();
  const navigation = useNavigation();
  // Open for one location only: any navigation (Checkout, a menu link, "Continue shopping") closes it,
  // except the one a submission already on its way makes when it comes back to this page: an "Add to
  // cart" whose count already shows when the shopper opens the cart ends with a redirect here.
  const here = `${location.pathname}${location.search}`;
  const [openAt, setOpenAt] = useState<{ key: string; path: string; submitting: boolean } | null>(null);
  const opened =
    openAt !== null && (openAt.key === location.key || (openAt.submitting && openAt.path === here));
  // Mounted from the first opening on, so that it can animate out (and in, the next times).
  const [wanted, setWanted] = useState(false);
  // A submission is on its way from its POST until its redirect's page data is in (state "loading" with
  // the form's method): the header's count shows the add at once, so the shopper may open the cart in
  // either stage.
  const submitting = navigation.formMethod !== undefined;
  const open = useCallback(() => {
    setWanted(true);
    setOpenAt({ key: location.key, path: here, submitting });
  }, [location.key, here, submitting]);
  // Once that submission is back, the drawer belongs to the location it came back to.
  useEffect(() => {
    if (opened && openAt && openAt.key !== location.key && navigation.state === "idle") {
      setOpenAt({ key: location.key, path: here, submitting: false });
    }
  }, [opened, openAt, location.key, here, navigation.state]);
  const close = useCallback(() => setOpenAt(null), []);
  return (
    <CartDrawerContext.Provider value={open}>
      {children}
      {wanted ? (
        <Suspense fallback={null}>
          <CartDrawerPanel
            cart={cart}
            opened={opened}
            onClose={close}
            redirectTo={`${location.pathname}${location.search}`}
          />
        </Suspense>
      ) : null}
    </CartDrawerContext.Provider>
  );
}

/**
 * The header's cart button: a link to /shop/cart that, once the page is
 * hydrated inside a CartDrawerProvider, opens the drawer instead (a modified
 * click still opens the page in a new tab, as for every PlainLink). The
 * drawer's code starts loading when the pointer or the focus reaches the button.
 */
export function CartLink({
  className,
  "aria-label": ariaLabel,
  children,
}: {
  className?: string;
  "aria-label"?: string;
  children: ReactNode;
}) {
  const openDrawer = useContext(CartDrawerContext);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!openDrawer || event.defaultPrevented || isModifiedClick(event.nativeEvent, event.currentTarget))
      return;
    event.preventDefault();
    // The mobile menu sheet (a <details>) steps aside for the drawer.
    event.currentTarget.closest("details")?.removeAttribute("open");
    openDrawer();
  };
  return (
    <PlainLink
      to="/shop/cart"
      className={className}
      aria-label={ariaLabel}
      onClick={handleClick}
      onIntent={openDrawer ? preloadCartDrawer : undefined}
    >
      {children}
    </PlainLink>
  );
}
