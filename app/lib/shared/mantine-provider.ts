/**
 * Mantine's provider, which the browser imports from its own file instead of
 * the package's index (docs/decisions/0008; `#mantine-provider` in package.json
 * "imports": the provider's file under the "browser" condition, the package
 * on the server). esbuild places every Mantine module that any page uses into
 * the chunk of whichever entry imports the index: the root importing the index
 * put the Drawer, Modal, inputs and notifications of all pages into every
 * page's JavaScript. The root imports this; pages and the chunks loaded on
 * demand import the index, and their Mantine code stays theirs. The index
 * re-exports the same file, so there is one context in the browser; the server
 * uses the package throughout.
 */
export { MantineProvider } from "#mantine-provider";
