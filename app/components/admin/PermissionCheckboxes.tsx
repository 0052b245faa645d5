import { Checkbox, Text } from "@mantine/core";
import { PERMISSION_LABELS, type Permission } from "~/lib/shared/permissions";

/**
 * A permission per checkbox, all named `permissions` (a plain form sends each
 * ticked one): the staff page's invite and edit forms and the API key form.
 * `choices` are the ones the signed-in person may hand out (those they hold).
 */
export function PermissionCheckboxes({
  idPrefix,
  legend,
  choices,
  selected,
  error,
}: {
  idPrefix: string;
  legend: string;
  choices: readonly Permission[];
  selected: readonly string[];
  error?: string;
}) {
  return (
    <fieldset className="permission-boxes">
      <legend>{legend}</legend>
      <div className="permission-boxes__grid">
        {choices.map((permission) => (
          <Checkbox
            key={permission}
            id={`${idPrefix}-${permission}`}
            name="permissions"
            value={permission}
            defaultChecked={selected.includes(permission)}
            label={PERMISSION_LABELS[permission].label}
            description={PERMISSION_LABELS[permission].description}
          />
        ))}
      </div>
      {error ? (
        <Text className="field-error" role="alert" size="sm">
          {error}
        </Text>
      ) : null}
    </fieldset>
  );
}
