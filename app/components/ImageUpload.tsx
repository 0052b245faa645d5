import { Alert, Progress } from "@mantine/core";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { useHydrated } from "~/lib/shared/use-hydrated";
import {
  IMAGE_ACCEPT,
  looksLikeImageFile,
  MAX_UPLOAD_BYTES,
  PLEASE_UPLOAD_IMAGE,
  TOO_LARGE_MESSAGE,
} from "~/lib/shared/uploads";

/**
 * The one image upload of the admin (products and feature images).
 *
 * Without JavaScript: a plain file input named `my_file` inside the form it
 * belongs to (multipart); the server stores the file with the form.
 * With JavaScript: drag and drop or click, a preview, a remove button, and
 * the upload runs at once (XMLHttpRequest, for its progress events) to the
 * upload endpoint; the form then carries only the returned URL in the hidden
 * field `name`. States: nothing selected → uploading → uploaded; a failed
 * upload clears the selection and says why.
 */

const UPLOAD_TIMEOUT_MS = 30_000;
export const DEFAULT_UPLOAD_ENDPOINT = "/api/admin/products/upload-image";

interface ImageUploadProps {
  /** The hidden field that carries the image URL with the form. */
  name?: string;
  /** The image already there (editing a product, or a value the server sent back). */
  initialUrl?: string;
  label?: string;
  error?: string;
  endpoint?: string;
  /** Tells the form the current URL (empty while nothing is uploaded). */
  onUrlChange?: (url: string) => void;
}

type UploadState =
  | { status: "idle" }
  | { status: "uploading"; progress: number; previewUrl: string }
  | { status: "uploaded"; url: string; previewUrl: string };

interface UploadAnswer {
  success?: boolean;
  message?: string;
  result?: { url?: unknown };
}

function readUploadAnswer(text: string): UploadAnswer | null {
  try {
    const body: unknown = text ? JSON.parse(text) : null;
    return body && typeof body === "object" ? (body as UploadAnswer) : null;
  } catch {
    return null;
  }
}

/** Sends `file` as my_file; resolves with the stored URL or rejects with a reason. */
export function uploadImageFile(
  file: File,
  endpoint: string,
  onProgress: (percent: number) => void,
): { promise: Promise<string>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<string>((resolve, reject) => {
    xhr.open("POST", endpoint);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = readUploadAnswer(xhr.responseText);
      if (xhr.status < 200 || xhr.status > 299) {
        reject(new Error(body?.message || `Upload failed (HTTP ${xhr.status})`));
      } else if (!body) {
        reject(new Error("No response data received"));
      } else if (typeof body.result?.url !== "string") {
        reject(new Error("No URL in response"));
      } else {
        resolve(body.result.url);
      }
    };
    xhr.onerror = () => reject(new Error("Network error occurred"));
    xhr.ontimeout = () => reject(new Error("The upload took longer than 30 seconds"));
    xhr.onabort = () => reject(new Error("The upload was cancelled"));
    const data = new FormData();
    data.append("my_file", file);
    xhr.send(data);
  });
  return { promise, abort: () => xhr.abort() };
}

export function ImageUpload({
  name = "image",
  initialUrl = "",
  label = "Upload Image",
  error,
  endpoint = DEFAULT_UPLOAD_ENDPOINT,
  onUrlChange,
}: ImageUploadProps) {
  const hydrated = useHydrated();
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<(() => void) | null>(null);
  const [state, setState] = useState<UploadState>(
    initialUrl ? { status: "uploaded", url: initialUrl, previewUrl: initialUrl } : { status: "idle" },
  );
  const [alert, setAlert] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const currentUrl = state.status === "uploaded" ? state.url : "";

  useEffect(() => {
    onUrlChange?.(currentUrl);
  }, [currentUrl, onUrlChange]);

  // Object URLs of local previews are released when they are replaced.
  const previewUrl = state.status === "idle" ? null : state.previewUrl;
  useEffect(() => {
    return () => {
      if (previewUrl?.startsWith("blob:")) URL.revokeObjectURL(previewUrl);
    };
  }, [previewUrl]);

  useEffect(() => () => abortRef.current?.(), []);

  function clearSelection() {
    abortRef.current?.();
    abortRef.current = null;
    if (inputRef.current) inputRef.current.value = "";
    setState({ status: "idle" });
  }

  function start(file: File | undefined) {
    if (!file) return;
    setAlert(null);
    if (!looksLikeImageFile(file)) {
      clearSelection();
      setAlert(PLEASE_UPLOAD_IMAGE);
      return;
    }
    if (file.size > MAX_UPLOAD_BYTES) {
      clearSelection();
      setAlert(`Upload failed: ${TOO_LARGE_MESSAGE}`);
      return;
    }
    const localPreview = URL.createObjectURL(file);
    setState({ status: "uploading", progress: 0, previewUrl: localPreview });
    const upload = uploadImageFile(file, endpoint, (progress) =>
      setState((current) => (current.status === "uploading" ? { ...current, progress } : current)),
    );
    abortRef.current = upload.abort;
    upload.promise.then(
      (url) => {
        abortRef.current = null;
        if (inputRef.current) inputRef.current.value = "";
        setState({ status: "uploaded", url, previewUrl: url });
      },
      (reason: Error) => {
        abortRef.current = null;
        if (inputRef.current) inputRef.current.value = "";
        setState({ status: "idle" });
        setAlert(`Upload failed: ${reason.message}`);
      },
    );
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    start(event.dataTransfer.files[0]);
  }

  if (!hydrated) {
    // The file goes with the form; the hidden field keeps an image already there.
    return (
      <div className="image-upload">
        <label htmlFor={inputId} className="image-upload__label">
          {label}
        </label>
        {initialUrl ? (
          <img
            src={initialUrl}
            alt="Current image"
            className="image-upload__preview"
            width={240}
            height={160}
          />
        ) : null}
        <input
          id={inputId}
          type="file"
          name="my_file"
          accept={IMAGE_ACCEPT}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
        <input type="hidden" name={name} value={initialUrl} />
        {initialUrl ? (
          <p className="image-upload__hint">Choose a file only to replace the current image.</p>
        ) : null}
        {error ? (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <div className="image-upload">
      <label htmlFor={inputId} className="image-upload__label">
        {label}
      </label>
      <input type="hidden" name={name} value={currentUrl} />
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        accept={IMAGE_ACCEPT}
        className="visually-hidden"
        data-testid="image-upload-input"
        disabled={state.status === "uploading"}
        onChange={(event) => start(event.currentTarget.files?.[0])}
      />
      {state.status === "idle" ? (
        <label
          htmlFor={inputId}
          className={`image-upload__drop${dragging ? " image-upload__drop--active" : ""}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <svg
            width="40"
            height="40"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            aria-hidden="true"
          >
            <path d="M12 16V4m0 0-4 4m4-4 4 4" />
            <path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
          </svg>
          <span>Drag &amp; drop or click to upload image</span>
        </label>
      ) : (
        <div className="image-upload__selected">
          <img src={state.previewUrl} alt="Selected image preview" className="image-upload__preview" />
          {state.status === "uploading" ? (
            <div className="image-upload__progress">
              <Progress value={state.progress} aria-label="Upload progress" size="sm" animated />
              <span role="status">Uploading… {state.progress}%</span>
            </div>
          ) : (
            <span className="image-upload__done" role="status">
              Image uploaded
            </span>
          )}
          <button type="button" className="admin-btn" onClick={clearSelection} aria-label="Remove image">
            Remove
          </button>
        </div>
      )}
      {alert ? (
        <Alert
          color="red"
          role="alert"
          title={alert.startsWith("Upload failed") ? "Upload failed" : undefined}
        >
          {alert.startsWith("Upload failed: ") ? alert.slice("Upload failed: ".length) : alert}
        </Alert>
      ) : null}
      {error && !alert ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
