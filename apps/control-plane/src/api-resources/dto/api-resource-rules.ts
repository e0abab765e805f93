import type { ValidationOptions } from 'class-validator';
import {
  API_RESOURCE_MAX_SCOPES,
  apiResourceIdentifierProblem,
  OIDC_STANDARD_SCOPES,
  SCOPE_TOKEN,
} from '@gatehouse/identity';
import { ruleDecorator } from '../../common/rule-decorator';

export const SCOPE_DESCRIPTION_MAX = 300;

/** What is wrong with a `scopes` list (`[{name, description?}]`, names unique scope tokens other than OpenID Connect's), or null. */
export function scopeListProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be an array of {name, description} objects';
  if (value.length > API_RESOURCE_MAX_SCOPES)
    return `must have at most ${API_RESOURCE_MAX_SCOPES} items`;
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      return `item ${i} must be an object {name, description}`;
    const extra = Object.keys(item as object).filter((k) => k !== 'name' && k !== 'description');
    if (extra.length) return `item ${i}: unknown member ${extra[0]}`;
    const { name, description } = item as { name?: unknown; description?: unknown };
    if (typeof name !== 'string' || !SCOPE_TOKEN.test(name))
      return `item ${i}: name must be 1-100 printable ASCII characters without space, quote or backslash`;
    if ((OIDC_STANDARD_SCOPES as readonly string[]).includes(name))
      return `item ${i}: ${name} is an OpenID Connect scope, not an API's`;
    if (seen.has(name)) return `item ${i}: ${name} is listed twice`;
    seen.add(name);
    if (
      description !== undefined &&
      (typeof description !== 'string' || description.length > SCOPE_DESCRIPTION_MAX)
    ) {
      return `item ${i}: description must be a string of at most ${SCOPE_DESCRIPTION_MAX} characters`;
    }
  }
  return null;
}

const identifierCheck = (value: unknown) =>
  typeof value === 'string' ? apiResourceIdentifierProblem(value) : 'must be a string';

export const IsApiResourceIdentifier = (o?: ValidationOptions) =>
  ruleDecorator('isApiResourceIdentifier', identifierCheck, o);
export const IsScopeList = (o?: ValidationOptions) =>
  ruleDecorator('isScopeList', scopeListProblem, o);
