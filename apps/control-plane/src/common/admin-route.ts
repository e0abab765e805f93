import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  UseGuards,
  type Type,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  type ApiOperationOptions,
  type ApiResponseNoStatusOptions,
} from '@nestjs/swagger';
import { AdminGuard } from '../auth/admin.guard';
import { ApiPageQueries } from '@gatehouse/http';

/** An operation's summary, or its whole options (a summary and a description). */
export type AdminOperation = string | ApiOperationOptions;
/** A success answer's body type, or its whole options (a description, a schema). */
export type AdminAnswer = Type<unknown> | ApiResponseNoStatusOptions;

/**
 * `decorators` applied as if written one above the other, the first on top: the last applies
 * first, as in the hand-written stacks these replace, so the OpenAPI document lists a route's
 * responses and parameters in the same order (`applyDecorators` alone applies the first first).
 */
function stacked(...decorators: MethodDecorator[]): MethodDecorator {
  return applyDecorators(...decorators.reverse());
}

const operation = (op: AdminOperation): MethodDecorator =>
  ApiOperation(typeof op === 'string' ? { summary: op } : op);

const answer = (body: AdminAnswer): ApiResponseNoStatusOptions =>
  typeof body === 'function' ? { type: body } : body;

const SUCCESS = { 200: ApiOkResponse, 201: ApiCreatedResponse, 202: ApiAcceptedResponse };

/** Optional query parameters documented by their names only, in the order given. */
export const ApiOptionalQueries = (...names: string[]): MethodDecorator =>
  stacked(...names.map((name) => ApiQuery({ name, required: false })));

/** A route of `method` at a path, answering 200 with `body`. */
function answering200(method: (path: string) => MethodDecorator) {
  return (
    path: string,
    op: AdminOperation,
    body: AdminAnswer,
    ...more: MethodDecorator[]
  ): MethodDecorator => stacked(method(path), operation(op), ApiOkResponse(answer(body)), ...more);
}

/** An admin controller at `path`: OpenAPI tag `tag`, bearer auth, `AdminGuard` on every route. */
export function AdminController(tag: string, path: string): ClassDecorator {
  return applyDecorators(Controller(path), UseGuards(AdminGuard), ApiBearerAuth(), ApiTags(tag));
}

/**
 * The route decorators of the admin API (docs/api-contract.md): each states the method, path,
 * status, OpenAPI operation and success answer of one kind of route; `more` adds what a route
 * documents besides (queries, other answers), in the order they were written.
 */
export const AdminRoute = {
  /** `POST` on the collection: 201 with `body`. */
  create: (op: AdminOperation, body: AdminAnswer, ...more: MethodDecorator[]): MethodDecorator =>
    AdminRoute.post('', 201, op, body, ...more),

  /** `POST path`, an action answering `status` with `body`. */
  post: (
    path: string,
    status: keyof typeof SUCCESS,
    op: AdminOperation,
    body: AdminAnswer,
    ...more: MethodDecorator[]
  ): MethodDecorator =>
    stacked(Post(path), HttpCode(status), operation(op), SUCCESS[status](answer(body)), ...more),

  /** `GET` of the collection, paginated (`page`, `limit`): 200 with `body`. */
  list: (op: AdminOperation, body: AdminAnswer, ...more: MethodDecorator[]): MethodDecorator =>
    stacked(Get(), ApiPageQueries(), operation(op), ApiOkResponse(answer(body)), ...more),

  /** `GET path`: 200 with `body`. */
  get: answering200(Get),

  /** `PATCH path`: 200 with `body`. */
  update: answering200(Patch),

  /** `DELETE path`: 204. */
  remove: (path: string, op: AdminOperation, ...more: MethodDecorator[]): MethodDecorator =>
    stacked(Delete(path), HttpCode(204), operation(op), ...more),
};
