// The browser's `#mantine-provider` (see ./mantine-provider.ts): the provider's own file, not the package index.
// @ts-expect-error -- the file has no declarations of its own; ./mantine-provider.ts types it as @mantine/core's.
export { MantineProvider } from "../../../node_modules/@mantine/core/esm/core/MantineProvider/MantineProvider.mjs";
