import { type LinksFunction, type LoaderFunctionArgs, Outlet } from "react-router";
import { requireAnonymous } from "~/web/auth.server";
import mantineStyles from "~/styles/mantine.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

// The forms are Mantine inputs and buttons: their styles (the root links only Mantine's base).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: mantineStyles }];

/** The split screen around sign-in and sign-up; only for visitors who are signed out. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export default function AuthLayout() {
  return (
    <div className="auth-layout">
      <aside className="auth-layout__panel" aria-hidden="false">
        <h2>Welcome to ECommerce Shopping</h2>
      </aside>
      <main className="auth-layout__page" id="main-content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
