import { applyDecorators } from '@nestjs/common';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, Length, Matches } from 'class-validator';
import {
  MAX_ROLE_PERMISSIONS,
  PERMISSION_KEY,
  PERMISSION_KEY_MAX,
  ROLE_KEY,
  SYSTEM_PERMISSIONS,
} from '@gatehouse/organizations';

const PERMISSION_OR_SYSTEM = new RegExp(
  `^(?:${SYSTEM_PERMISSIONS.join('|')}|${PERMISSION_KEY.source.slice(1, -1)})$`,
);

/** A role's `permissions`: unique keys, each a system permission or a `resource:action` of the catalog. */
export const IsPermissionList = () =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(MAX_ROLE_PERMISSIONS),
    ArrayUnique(),
    IsString({ each: true }),
    Length(1, PERMISSION_KEY_MAX, { each: true }),
    Matches(PERMISSION_OR_SYSTEM, {
      each: true,
      message: 'each item must be a permission key: a system permission or resource:action',
    }),
  );

/** A display name: 1–100 characters, not blank. */
export const IsRoleName = () =>
  applyDecorators(IsString(), Length(1, 100), Matches(/\S/, { message: 'must not be blank' }));

/** A role key: the built-in admin or member, or a custom role's (whether the project has it is the service's). */
export const IsRoleKey = () =>
  applyDecorators(
    IsString(),
    Matches(ROLE_KEY, { message: 'must be a role key: 1-40 lower-case letters, digits, _ or -' }),
  );
