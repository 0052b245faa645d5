import { useContext } from "react";
import { createAppContext } from "./app-contexts";

/**
 * The CSP nonce of this request. Browsers hide nonce attributes from script,
 * so on the client the value is empty; React is told to ignore the mismatch.
 */
const NonceContext = createAppContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
