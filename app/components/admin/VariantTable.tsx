import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { Button, Group, Text } from "@mantine/core";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { isCategory } from "~/lib/shared/catalog-options";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { ALL_SIZES, COLOURS, SIZE_SCALES, sizeLabel } from "~/lib/shared/variants";
import {
  CHOOSE_CATEGORY_FOR_SIZES,
  missingSizeRows,
  VARIANT_INTENTS,
  type VariantFormRow,
} from "./variant-rows";

interface VariantTableProps<Schema extends { variants: VariantFormRow[] }> {
  /** The product form (conform's): its list intents add and remove rows. */
  form: FormMetadata<Schema>;
  /** The form's `variants` list: each row's inputs, values and errors by conform's names (`variants[2].size`). */
  variants: FieldMetadata<VariantFormRow[], Schema>;
  /** The category chosen in the form: its scale fills the size lists. */
  category: string;
}

const COLUMNS = [
  { field: "size", label: "Size" },
  { field: "colour", label: "Colour" },
  { field: "totalStock", label: "Stock" },
  { field: "sku", label: "SKU" },
  { field: "price", label: "Price" },
  { field: "salePrice", label: "Sale price" },
] as const;

const sumOf = (values: readonly (string | undefined)[]) =>
  values.reduce((sum, value) => {
    const stock = Number(value);
    return Number.isInteger(stock) && stock > 0 ? sum + stock : sum;
  }, 0);

/**
 * The product's sizes and colours: one row per variant (size, colour, stock,
 * SKU, optional price pair), kept by conform's list (`useForm`'s `variants`).
 * "Add a row" and "Remove" are conform's list intents: plain submit buttons,
 * so that without JavaScript the page comes back with the row added or
 * removed and everything typed; with JavaScript conform changes the list in
 * place. "Add every size" is the page's own intent (conform has no intent
 * that adds several rows): without JavaScript the server adds them, with
 * JavaScript a row is inserted for each.
 */
export function VariantTable<Schema extends { variants: VariantFormRow[] }>({
  form,
  variants,
  category,
}: VariantTableProps<Schema>) {
  const hydrated = useHydrated();
  const rows = variants.getFieldList();
  const [localError, setLocalError] = useState<string | null>(null);
  const [total, setTotal] = useState(() =>
    sumOf(rows.map((row) => String(row.getFieldset().totalStock.initialValue ?? ""))),
  );
  const tableRef = useRef<HTMLDivElement>(null);

  const valuesOf = (selector: string) =>
    [...(tableRef.current?.querySelectorAll<HTMLInputElement | HTMLSelectElement>(selector) ?? [])].map(
      (element) => element.value,
    );
  const recount = () => setTotal(sumOf(valuesOf("input[data-stock]")));
  const rowKeys = rows.map((row) => row.key).join();
  useEffect(recount, [rowKeys]);

  const scale = isCategory(category) ? SIZE_SCALES[category] : ALL_SIZES;

  const addScale = (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    setLocalError(null);
    if (!isCategory(category)) {
      setLocalError(CHOOSE_CATEGORY_FOR_SIZES);
      return;
    }
    for (const row of missingSizeRows(category, valuesOf("select[data-size]")))
      form.insert({ name: variants.name, defaultValue: row });
  };

  const tableError = variants.errors?.[0] ?? localError;
  return (
    <fieldset className="variant-table__fieldset">
      <legend>Sizes and colours</legend>
      <div className="variant-table__scroll" ref={tableRef} onInput={recount}>
        <table className="variant-table">
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th key={column.field} scope="col">
                  {column.label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const fieldset = row.getFieldset();
              const valueOf = (field: keyof VariantFormRow) => String(fieldset[field].initialValue ?? "");
              const rowLabel = `row ${index + 1}`;
              const rowError = row.errors?.[0] ?? fieldset._id.errors?.[0];
              const size = valueOf("size");
              const id = valueOf("_id");
              const stockRead = valueOf("stockRead");
              return (
                <tr key={row.key ?? `row-${index}`} data-testid="variant-row">
                  {COLUMNS.map((column) => {
                    const field = fieldset[column.field];
                    const error = field.errors?.[0];
                    const errorId = `variant-${index}-${column.field}-error`;
                    const common = {
                      name: field.name,
                      "aria-label": `${column.label}, ${rowLabel}`,
                      "aria-invalid": error ? true : undefined,
                      "aria-describedby": error ? errorId : undefined,
                      defaultValue: valueOf(column.field),
                    };
                    return (
                      <td key={column.field}>
                        {column.field === "size" ? (
                          <select {...common} data-size>
                            <option value="">No size</option>
                            {scale.map((size) => (
                              <option key={size.value} value={size.value}>
                                {sizeLabel(size.value)}
                              </option>
                            ))}
                            {size && !scale.some((option) => option.value === size) ? (
                              <option value={size}>{size} (not of this category)</option>
                            ) : null}
                          </select>
                        ) : column.field === "colour" ? (
                          <select {...common}>
                            <option value="">No colour</option>
                            {COLOURS.map((colour) => (
                              <option key={colour.value} value={colour.value}>
                                {colour.label}
                              </option>
                            ))}
                          </select>
                        ) : (
                          <input
                            {...common}
                            type="text"
                            inputMode={
                              column.field === "totalStock"
                                ? "numeric"
                                : column.field === "sku"
                                  ? undefined
                                  : "decimal"
                            }
                            placeholder={
                              column.field === "sku"
                                ? "Generated"
                                : column.field === "totalStock"
                                  ? undefined
                                  : "Product's"
                            }
                            data-stock={column.field === "totalStock" ? true : undefined}
                          />
                        )}
                        {error ? (
                          <p className="variant-table__error" id={errorId}>
                            {error}
                          </p>
                        ) : null}
                      </td>
                    );
                  })}
                  <td>
                    {id ? <input type="hidden" name={fieldset._id.name} value={id} /> : null}
                    {/* The stock the editor sees: a save changes the stock by what they changed. */}
                    {id && stockRead ? (
                      <input type="hidden" name={fieldset.stockRead.name} value={stockRead} />
                    ) : null}
                    <Button
                      {...form.remove.getButtonProps({ name: variants.name, index })}
                      // conform's intent posts the form (Mantine's buttons are type="button" unless told).
                      type="submit"
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={`Remove ${rowLabel}`}
                    >
                      Remove
                    </Button>
                    {rowError ? <p className="variant-table__error">{rowError}</p> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {tableError ? (
        <Text c="red.7" size="sm" role="alert">
          {tableError}
        </Text>
      ) : null}
      <Group justify="space-between" gap="xs" mt="xs" wrap="wrap">
        <Group gap="xs">
          <Button
            {...form.insert.getButtonProps({ name: variants.name, defaultValue: {} })}
            // conform's intent posts the form (Mantine's buttons are type="button" unless told).
            type="submit"
            variant="default"
            size="xs"
          >
            Add a row
          </Button>
          <Button
            type="submit"
            name="intent"
            value={VARIANT_INTENTS.addScale}
            variant="default"
            size="xs"
            onClick={addScale}
          >
            Add every size
          </Button>
        </Group>
        <Text size="sm" aria-live="polite" data-testid="variant-total">
          Total stock: {total}
        </Text>
      </Group>
    </fieldset>
  );
}
