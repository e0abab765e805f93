import {
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';

/**
 * A class-validator property decorator from a rule that says what is wrong with a value (or null):
 * the rule's answer is the field's error message.
 */
export function ruleDecorator(
  name: string,
  check: (value: unknown) => string | null,
  options?: ValidationOptions,
): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName: String(propertyName),
      options: {
        message: (args: ValidationArguments) => check(args.value) ?? 'is invalid',
        ...options,
      },
      validator: { validate: (value: unknown) => check(value) === null },
    });
}
