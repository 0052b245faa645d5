import { createContext, useContext } from "react";

/**
 * The CSP nonce of this request. Browsers hide nonce attributes from script,
 * so on the client the value is empty; React is told to ignore the mismatch.
 */
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
