/**
 * An error raised below the feature layer (cache, HTTP plumbing). It names the problem slug the
 * ProblemDetailsFilter renders for it; platform code cannot import the problem catalog itself.
 */
export class PlatformError extends Error {
  constructor(
    readonly problemSlug: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export class DependencyUnavailableError extends PlatformError {
  constructor(
    readonly dependency: 'database' | 'cache' | 'queue',
    cause?: unknown,
  ) {
    super('service-unavailable', `The ${dependency} is unavailable; try again shortly.`);
    this.name = 'DependencyUnavailableError';
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}
