/** The `intent` of each account settings form (the page posts them all to one action). Without zod, for the browser. */
export const ACCOUNT_INTENTS = {
  userName: "change-user-name",
  password: "change-password",
  signOutOthers: "sign-out-others",
} as const;
