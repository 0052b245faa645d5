import { useEffect, useId, useRef, useState, type MouseEvent } from "react";
import { DEFAULT_UPLOAD_ENDPOINT, uploadImageFile } from "~/components/ImageUpload";
import { MAX_IMAGE_ALT_LENGTH, MAX_PRODUCT_IMAGES } from "~/lib/shared/product";
import {
  looksLikeImageFile,
  MAX_UPLOAD_BYTES,
  PLEASE_UPLOAD_IMAGE,
  TOO_LARGE_MESSAGE,
} from "~/lib/shared/uploads";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { colourLabel } from "~/lib/shared/variants";
import { PICTURE_INTENTS, changePictureRows, type PictureFormRow } from "./picture-rows";

type Errors = Record<string, string[] | null | undefined> | null | undefined;

/**
 * The product's pictures in the admin form: up to eight, each a thumbnail
 * with its alt text, its colour (one of the product's, when it has any) and
 * buttons to move it up or down or remove it. The first is the product's
 * image. Several files are chosen at once.
 *
 * Without JavaScript the file input travels with the form (multipart) and
 * "Upload pictures" stores the files and brings the form back with them in
 * the list; the buttons submit the form with an intent, like the variant
 * table's. With JavaScript the files go to the upload endpoint at once and
 * join the list, and the buttons change it in place.
 */
export function PictureList({
  initialRows,
  colours,
  errors,
  onCountChange,
}: {
  initialRows: PictureFormRow[];
  /** The product's colours (its variant rows'), for the colour select. */
  colours: readonly string[];
  /** The server's field errors (`images[2].alt`, `images`, `image`, `my_file`). */
  errors: Errors;
  /** Tells the form how many pictures the list holds (Add stays disabled without one). */
  onCountChange?: (count: number) => void;
}) {
  const hydrated = useHydrated();
  const inputId = useId();
  const nextKey = useRef(0);
  const keyed = (row: PictureFormRow) => ({ key: nextKey.current++, row });
  const [rows, setRows] = useState(() => initialRows.map(keyed));
  const [shownErrors, setShownErrors] = useState<Errors>(errors);
  const [uploading, setUploading] = useState(0);
  const [alert, setAlert] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => setShownErrors(errors), [errors]);
  useEffect(() => onCountChange?.(rows.length), [rows.length, onCountChange]);

  const remaining = MAX_PRODUCT_IMAGES - rows.length - uploading;
  // Files chosen before the scripts ran are uploaded once they do (the input then no longer posts them).
  useEffect(() => {
    if (hydrated && inputRef.current?.files?.length) upload(inputRef.current.files);
    // Only when the scripts take over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);
  const errorOf = (name: string) => shownErrors?.[name]?.[0];
  const listError = errorOf("images") ?? errorOf("image") ?? errorOf("my_file");

  /** The typed alt texts and chosen colours, so that a move keeps them with their picture. */
  const currentRows = () =>
    rows.map(({ key, row }, index) => {
      const item = listRef.current?.querySelector(`[data-key="${key}"]`);
      const value = (field: string) =>
        item?.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="images[${index}].${field}"]`)
          ?.value;
      return { key, row: { ...row, alt: value("alt") ?? row.alt, colour: value("colour") ?? row.colour } };
    });

  /** With JavaScript a button changes the list here instead of submitting the form. */
  const inBrowser = (intent: string) => (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    // The server's errors name pictures by index: after a change they would point at the wrong one.
    setShownErrors(null);
    const current = currentRows();
    const changed = changePictureRows(
      intent,
      current.map((entry) => entry.row),
    );
    if (!changed) return;
    // Keys follow their rows, so React moves the elements (and the focus stays on the moved button).
    const keyOf = new Map(current.map((entry) => [entry.row, entry.key]));
    setRows(changed.map((row) => ({ key: keyOf.get(row) ?? nextKey.current++, row })));
  };

  function upload(files: FileList | null) {
    if (!files?.length) return;
    setAlert(null);
    const chosen = [...files];
    const taken = chosen.slice(0, Math.max(0, remaining));
    if (taken.length < chosen.length)
      setAlert(`At most ${MAX_PRODUCT_IMAGES} pictures: ${chosen.length - taken.length} not added`);
    if (inputRef.current) inputRef.current.value = "";
    const accepted = taken.filter((file) => {
      if (!looksLikeImageFile(file)) {
        setAlert(`${file.name}: ${PLEASE_UPLOAD_IMAGE}`);
        return false;
      }
      if (file.size > MAX_UPLOAD_BYTES) {
        setAlert(`${file.name}: ${TOO_LARGE_MESSAGE}`);
        return false;
      }
      return true;
    });
    if (!accepted.length) return;
    setUploading((count) => count + accepted.length);
    // Uploaded side by side, added in the order they were chosen (not the order the uploads finish).
    void Promise.allSettled(
      accepted.map((file) => uploadImageFile(file, DEFAULT_UPLOAD_ENDPOINT, () => {}).promise),
    ).then((results) => {
      setUploading((count) => count - accepted.length);
      const urls: string[] = [];
      results.forEach((result, index) => {
        if (result.status === "fulfilled") urls.push(result.value);
        else setAlert(`${accepted[index]!.name}: upload failed: ${(result.reason as Error).message}`);
      });
      if (urls.length)
        setRows((current) => [...current, ...urls.map((url) => keyed({ url, alt: "", colour: "" }))]);
    });
  }

  return (
    <fieldset className="picture-list">
      <legend>Pictures</legend>
      <p className="picture-list__hint">
        The first picture is the product&apos;s image in the shop&apos;s lists. Describe each one for those
        who cannot see it.
      </p>
      {rows.length ? (
        <ol className="picture-list__items" ref={listRef}>
          {rows.map(({ key, row }, index) => {
            const name = (field: string) => `images[${index}].${field}`;
            const label = `picture ${index + 1}`;
            const altError = errorOf(name("alt"));
            const colourError = errorOf(name("colour"));
            const urlError = errorOf(name("url")) ?? errorOf(`images[${index}]`);
            const altId = `${inputId}-${key}-alt`;
            const errorId = `${inputId}-${key}-error`;
            const messages = [urlError, altError, colourError].filter(Boolean);
            return (
              <li key={key} className="picture-list__item" data-key={key} data-testid="picture-row">
                <img src={row.url} alt="" width={80} height={80} className="picture-list__thumb" />
                <input type="hidden" name={name("url")} value={row.url} />
                <div className="picture-list__fields">
                  <label htmlFor={altId} className="picture-list__label">
                    Alt text, {label}
                  </label>
                  <input
                    id={altId}
                    name={name("alt")}
                    defaultValue={row.alt}
                    maxLength={MAX_IMAGE_ALT_LENGTH}
                    placeholder="What the picture shows"
                    aria-invalid={altError ? true : undefined}
                    aria-describedby={messages.length ? errorId : undefined}
                    className="picture-list__input"
                  />
                  {colours.length ? (
                    <select
                      name={name("colour")}
                      defaultValue={row.colour}
                      aria-label={`Colour, ${label}`}
                      aria-invalid={colourError ? true : undefined}
                      className="picture-list__input"
                    >
                      <option value="">Any colour</option>
                      {colours.map((colour) => (
                        <option key={colour} value={colour}>
                          {colourLabel(colour)}
                        </option>
                      ))}
                      {row.colour && !colours.includes(row.colour) ? (
                        <option value={row.colour}>
                          {colourLabel(row.colour)} (not a colour of this product)
                        </option>
                      ) : null}
                    </select>
                  ) : null}
                  {messages.length ? (
                    <p className="picture-list__error" id={errorId}>
                      {messages.join(" ")}
                    </p>
                  ) : null}
                </div>
                <div className="picture-list__actions">
                  <button
                    type="submit"
                    name="intent"
                    value={`${PICTURE_INTENTS.upPrefix}${index}`}
                    className="admin-btn"
                    disabled={index === 0}
                    aria-label={`Move ${label} up`}
                    onClick={inBrowser(`${PICTURE_INTENTS.upPrefix}${index}`)}
                  >
                    Move up
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value={`${PICTURE_INTENTS.downPrefix}${index}`}
                    className="admin-btn"
                    disabled={index === rows.length - 1}
                    aria-label={`Move ${label} down`}
                    onClick={inBrowser(`${PICTURE_INTENTS.downPrefix}${index}`)}
                  >
                    Move down
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value={`${PICTURE_INTENTS.removePrefix}${index}`}
                    className="admin-btn"
                    aria-label={`Remove ${label}`}
                    onClick={inBrowser(`${PICTURE_INTENTS.removePrefix}${index}`)}
                  >
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ol>
      ) : null}
      {remaining > 0 || uploading > 0 ? (
        <div
          className="picture-list__add"
          // With JavaScript, files dropped here upload like chosen ones.
          onDragOver={(event) => {
            if (hydrated) event.preventDefault();
          }}
          onDrop={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            upload(event.dataTransfer.files);
          }}
        >
          <label htmlFor={inputId} className="picture-list__label">
            Add pictures ({Math.max(0, remaining)} of {MAX_PRODUCT_IMAGES} left)
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            accept="image/*"
            // Without JavaScript the files travel with the form; with it they are uploaded at once.
            name={hydrated ? undefined : "my_file"}
            disabled={remaining <= 0}
            data-testid="picture-files"
            onChange={(event) => upload(event.currentTarget.files)}
          />
          {hydrated ? null : (
            <button type="submit" name="intent" value={PICTURE_INTENTS.upload} className="admin-btn">
              Upload pictures
            </button>
          )}
          {uploading > 0 ? (
            <p role="status" className="picture-list__status">
              Uploading {uploading} picture{uploading === 1 ? "" : "s"}…
            </p>
          ) : null}
        </div>
      ) : (
        <p className="picture-list__hint">{MAX_PRODUCT_IMAGES} pictures: remove one to add another.</p>
      )}
      {alert ? (
        <p className="picture-list__error" role="alert">
          {alert}
        </p>
      ) : null}
      {listError ? (
        <p className="picture-list__error" role="alert">
          {listError}
        </p>
      ) : null}
    </fieldset>
  );
}
