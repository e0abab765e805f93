import { SegmentedControl, TextInput, type TextInputProps } from '@mantine/core';

/** The choice of second factor for a sign-in's code, shown only when there are several. */
export function FactorChoice<F extends string>({
  factors,
  label,
  value,
  onChange,
}: {
  factors: readonly F[];
  label: (factor: F) => string;
  value: F;
  onChange: (factor: F) => void;
}) {
  if (factors.length <= 1) return null;
  return (
    <SegmentedControl
      aria-label="Verification method"
      value={value}
      onChange={onChange}
      data={factors.map((f) => ({ value: f, label: label(f) }))}
    />
  );
}

/** The code of a second factor: six digits from an app or a text message, or a backup code. */
export function CodeInput({
  backupCode,
  ...props
}: Omit<TextInputProps, 'label' | 'autoComplete' | 'inputMode' | 'required'> & {
  backupCode: boolean;
}) {
  return (
    <TextInput
      label={backupCode ? 'Backup code' : '6-digit code'}
      autoComplete="one-time-code"
      inputMode={backupCode ? 'text' : 'numeric'}
      required
      {...props}
    />
  );
}
