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

type Errors = Record<string, string[] | null | undefined> | null | undefined;

interface VariantTableProps {
  /** The rows the form starts with: the product's variants, or what the admin sent. */
  initialRows: VariantFormRow[];
  /** The category chosen in the form: its scale fills the size lists. */
  category: string;
  /** The server's field errors (`variants[2].size`, …). */
  errors: Errors;
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
 * SKU, optional price pair). Its buttons submit the form with an intent, so
 * that without JavaScript the page adds or removes the row and comes back
 * with everything typed; with JavaScript they change the rows in place.
 */
export function VariantTable({ initialRows, category, errors }: VariantTableProps) {
  const hydrated = useHydrated();
  const nextKey = useRef(0);
  const keyed = (row: VariantFormRow) => ({ key: nextKey.current++, row });
  const [rows, setRows] = useState(() => initialRows.map(keyed));
  const [shownErrors, setShownErrors] = useState<Errors>(errors);
  const [localError, setLocalError] = useState<string | null>(null);
  const [total, setTotal] = useState(() => sumOf(initialRows.map((row) => row.totalStock)));
  const tableRef = useRef<HTMLDivElement>(null);
  useEffect(() => setShownErrors(errors), [errors]);

  const valuesOf = (selector: string) =>
    [...(tableRef.current?.querySelectorAll<HTMLInputElement | HTMLSelectElement>(selector) ?? [])].map(
      (element) => element.value,
    );
  const recount = () => setTotal(sumOf(valuesOf("input[data-stock]")));
  useEffect(recount, [rows]);

  const scale = isCategory(category) ? SIZE_SCALES[category] : ALL_SIZES;
  const errorOf = (name: string) => shownErrors?.[name]?.[0];

  /** With JavaScript a button changes the rows here instead of submitting the form. */
  const inBrowser = (change: () => void) => (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    setLocalError(null);
    change();
  };
  const addRow = inBrowser(() => setRows((current) => [...current, keyed({})]));
  const addScale = inBrowser(() => {
    if (!isCategory(category)) {
      setLocalError(CHOOSE_CATEGORY_FOR_SIZES);
      return;
    }
    const added = missingSizeRows(category, valuesOf("select[data-size]"));
    setRows((current) => [...current, ...added.map(keyed)]);
  });
  const removeRow = (index: number) =>
    inBrowser(() => {
      // The server's errors name rows by index: after a removal they would point at the wrong row.
      setShownErrors(null);
      setRows((current) => current.filter((_, at) => at !== index));
    });

  const tableError = errorOf("variants") ?? localError;
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
            {rows.map(({ key, row }, index) => {
              const name = (field: string) => `variants[${index}].${field}`;
              const rowLabel = `row ${index + 1}`;
              const rowError = errorOf(`variants[${index}]`) ?? errorOf(name("_id"));
              return (
                <tr key={key} data-testid="variant-row">
                  {COLUMNS.map((column) => {
                    const error = errorOf(name(column.field));
                    const errorId = `variant-${index}-${column.field}-error`;
                    const common = {
                      name: name(column.field),
                      "aria-label": `${column.label}, ${rowLabel}`,
                      "aria-invalid": error ? true : undefined,
                      "aria-describedby": error ? errorId : undefined,
                      defaultValue: row[column.field] ?? "",
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
                            {row.size && !scale.some((size) => size.value === row.size) ? (
                              <option value={row.size}>{row.size} (not of this category)</option>
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
                    {row._id ? <input type="hidden" name={name("_id")} value={row._id} /> : null}
                    {row._id && row.stockRead ? (
                      <input type="hidden" name={name("stockRead")} value={row.stockRead} />
                    ) : null}
                    <Button
                      type="submit"
                      name="intent"
                      value={`${VARIANT_INTENTS.removePrefix}${index}`}
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={`Remove ${rowLabel}`}
                      onClick={removeRow(index)}
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
            type="submit"
            name="intent"
            value={VARIANT_INTENTS.add}
            variant="default"
            size="xs"
            onClick={addRow}
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
