// The part of madge's API the import-cycle test uses (madge ships no types).
declare module "madge" {
  interface MadgeResult {
    /** Each circle as the list of files (relative to the base folder) that form it. */
    circular(): string[][];
    /** Every file (relative to the base folder) with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(
    path: string | string[],
    config?: {
      fileExtensions?: string[];
      tsConfig?: string;
      detectiveOptions?: Record<string, { skipTypeImports?: boolean; skipAsyncImports?: boolean }>;
    },
  ): Promise<MadgeResult>;
}
