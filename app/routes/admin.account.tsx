import { readForm } from "~/lib/server/request-body.server";
import { Title } from "@mantine/core";
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { AccountSettings } from "~/components/AccountSettings";
import { handleAccountAction, isAccountIntent, loadAccountSettings } from "~/web/account-actions.server";
import { requireAdmin } from "~/web/auth.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/** The admin's own account: user name, password, other sessions (the shopper's Settings tab, same rules). */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: adminStyles }];

const ACCOUNT_URL = "/admin/account";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  return data({ settings: await loadAccountSettings(request, user) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const formData = await readForm(request);
  if (!isAccountIntent(formData)) {
    return redirectWithFlash(request, ACCOUNT_URL, { type: "error", message: "Unknown action" });
  }
  return handleAccountAction(request, user, formData, ACCOUNT_URL);
}

export const meta: MetaFunction = () => [{ title: "Account · Admin Panel" }];

export default function AdminAccountPage() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="admin-page">
      <div className="admin-card">
        <Title order={1} size="h3" mb="md">
          Account
        </Title>
        <AccountSettings
          key={settings.version}
          {...settings}
          lastSubmission={actionData && "accountForm" in actionData ? actionData.accountForm : null}
        />
      </div>
    </section>
  );
}
