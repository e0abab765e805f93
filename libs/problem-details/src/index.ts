/** Errors as RFC 9457 problem details: the catalog of slugs, the one filter and the validation pipe. */
export { ProblemDetailsFilter } from './problem-details.filter';
export { ProblemError, type FieldErrors, type ProblemOptions } from './problem.error';
export { PROBLEM_TYPES, slugForStatus, type ProblemSlug } from './problem-types';
export { ROUTE_TABLE, RouteTable, routePatternSource } from './route-table';
export {
  findHostileValues,
  flattenValidationErrors,
  ProblemValidationPipe,
} from './validation.pipe';
export { isDependencyFailure, isRejectedInput } from './dependency-failure';
