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
import { TwoFactorSettings } from "~/components/TwoFactorSettings";
import { handleAccountAction, isAccountIntent, loadAccountSettings } from "~/web/account-actions.server";
import { requireAdmin } from "~/web/auth.server";
import {
  handleTwoFactorAction,
  isTwoFactorIntent,
  loadTwoFactorSection,
} from "~/web/two-factor-actions.server";
import { redirectWithFlash } from "~/web/session.server";
import adminStyles from "~/styles/admin.css?url";
import plainFormStyles from "~/styles/plain-forms.css?url";
import twoFactorStyles from "~/styles/two-factor.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The admin's own account: user name, password, other sessions, two-factor sign-in (the shopper's
 * Settings tab, same rules). With TWO_FACTOR=required it is the one back-office page open to a
 * person without two-factor sign-in (app/web/two-factor-gate.server.ts).
 */

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  // The account forms are the shop's (AccountSettings, plain HTML): their styles come with them.
  { rel: "stylesheet", href: plainFormStyles },
  { rel: "stylesheet", href: twoFactorStyles },
];

const ACCOUNT_URL = "/admin/account";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  const [settings, twoFactor] = await Promise.all([
    loadAccountSettings(request, user),
    loadTwoFactorSection(user),
  ]);
  return data({ settings, twoFactor });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request);
  const formData = await readForm(request);
  if (isTwoFactorIntent(formData))
    return handleTwoFactorAction(request, user, formData, ACCOUNT_URL, context);
  if (!isAccountIntent(formData)) {
    return redirectWithFlash(request, ACCOUNT_URL, { type: "error", message: "Unknown action" });
  }
  return handleAccountAction(request, user, formData, ACCOUNT_URL);
}

export const meta: MetaFunction = () => [{ title: "Account · Admin Panel" }];

export default function AdminAccountPage() {
  const { settings, twoFactor } = useLoaderData<typeof loader>();
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
      <div className="admin-card">
        <TwoFactorSettings
          {...twoFactor}
          lastRefusal={actionData && "twoFactorForm" in actionData ? actionData.twoFactorForm : null}
          newBackupCodes={actionData && "newBackupCodes" in actionData ? actionData.newBackupCodes : null}
        />
      </div>
    </section>
  );
}
