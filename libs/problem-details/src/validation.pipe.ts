import {
  Injectable,
  ValidationPipe as NestValidationPipe,
  type ArgumentMetadata,
} from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { ProblemError, type FieldErrors } from './problem.error';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Sets a field's messages as an own property, even for a field named `__proto__`. */
function setField(out: FieldErrors, path: string, messages: string[]): void {
  Object.defineProperty(out, path, {
    value: messages,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Constraints on a value's type: when one fails, the others (length, range, format) say nothing useful. */
const TYPE_CONSTRAINTS = new Set([
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isObject',
  'isArray',
]);

function messagesOf(constraints: Record<string, string>): string[] {
  const entries = Object.entries(constraints);
  const typeErrors = entries.filter(([name]) => TYPE_CONSTRAINTS.has(name));
  return (typeErrors.length > 0 ? typeErrors : entries).map(([, message]) => message);
}

/**
 * Dotted field paths and their messages from class-validator's error tree; a value of the wrong
 * type gets only its type's message (`"600"` for a number: "must be an integer", no range).
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out[path] = [...(out[path] ?? []), ...messagesOf(e.constraints)];
    if (e.children?.length) Object.assign(out, flattenValidationErrors(e.children, path));
  }
  return out;
}

/**
 * Finds values no handler should ever see: prototype-polluting keys, strings with NUL bytes or
 * lone UTF-16 surrogates (PostgreSQL cannot store them, and they are never meaningful input).
 */
export function findHostileValues(
  value: unknown,
  path = '',
  out: FieldErrors = {},
  depth = 0,
): FieldErrors {
  if (depth > 32) {
    setField(out, path || 'body', ['is nested too deeply']);
    return out;
  }
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      setField(out, path || 'body', ['must not contain NUL characters']);
    else if (!value.isWellFormed()) setField(out, path || 'body', ['must be well-formed Unicode']);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) =>
      findHostileValues(v, path ? `${path}.${i}` : String(i), out, depth + 1),
    );
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) setField(out, childPath, [`property ${key} should not exist`]);
      else {
        if (!key.isWellFormed() || key.includes('\u0000'))
          setField(out, childPath, ['property name must be well-formed Unicode']);
        findHostileValues((value as Record<string, unknown>)[key], childPath, out, depth + 1);
      }
    }
  }
  return out;
}

/**
 * Global pipe: whitelist + forbidNonWhitelisted + transform, no implicit conversion, and every
 * failure as a `validation-error` problem with dotted field paths.
 */
@Injectable()
export class ProblemValidationPipe extends NestValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors: ValidationError[]) =>
        ProblemError.validation(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw ProblemError.validation(
          { body: ['must be a JSON object'] },
          'The request body must be a JSON object.',
        );
      }
      const hostile = findHostileValues(value);
      if (Object.keys(hostile).length > 0) throw ProblemError.validation(hostile);
    } else if (metadata.type === 'query' && value && typeof value === 'object') {
      const hostile = findHostileValues(value);
      if (Object.keys(hostile).length > 0) throw ProblemError.validation(hostile);
    }
    return super.transform(value, metadata);
  }
}
