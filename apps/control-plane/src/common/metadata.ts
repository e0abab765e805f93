import { registerDecorator, type ValidationOptions } from 'class-validator';

export const METADATA_MAX_BYTES = 8 * 1024;

/** A JSON object (not an array) of at most 8 KiB when serialised, as for sign-up metadata. */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isMetadata',
      target: object.constructor,
      propertyName: String(propertyName),
      options: { message: 'must be a JSON object of at most 8 KiB', ...options },
      validator: {
        validate: (value: unknown) =>
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES,
      },
    });
}
