import 'reflect-metadata';
import type { EntityManager } from 'typeorm';
import { Clock } from '@gatehouse/platform';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor, whatever it takes
type Class<T = unknown> = abstract new (...args: any[]) => T;

/** The fixed time of a test service's clock unless the test gives one. */
export const TEST_SERVICE_NOW = new Date('2026-11-25T12:00:00Z');

/** Every method of `C` as a jest mock that fails until the test says what it answers. */
function automock<T>(type: Class<T>): jest.Mocked<T> {
  const fake: Record<string, jest.Mock> = {};
  for (
    let proto = type.prototype as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name === 'constructor' || name in fake || typeof descriptor?.value !== 'function')
        continue;
      fake[name] = jest.fn(() => {
        throw new Error(`${type.name}.${name} is not faked in this test`);
      });
    }
  }
  return fake as unknown as jest.Mocked<T>;
}

/**
 * A service with a fake for each of its constructor's dependencies, found by their types (the
 * metadata Nest's injection reads), in the style of immich's `newTestService`:
 *
 *     const { sut, mock } = newTestService(AccountsService);
 *     mock(UsersRepository).findByIdentifier.mockResolvedValue(found);
 *
 * Every dependency is a jest mock of its class whose methods throw until given an answer, so a test
 * states exactly what the repositories return and sees what the service asked of them. A
 * DataSource runs each transaction at once on a fake manager, and a Clock stands at
 * TEST_SERVICE_NOW; `given` replaces any dependency by its class.
 */
export function newTestService<S>(
  Service: new (...args: never[]) => S,
  given: [Class, unknown][] = [],
) {
  const types = (Reflect.getMetadata('design:paramtypes', Service) as Class[] | undefined) ?? [];
  const manager = {} as EntityManager;
  const fakes = new Map<Class, unknown>(given);
  const dependencies = types.map((type, i) => {
    if (!type || type === (Object as unknown as Class))
      throw new Error(
        `${Service.name}'s parameter ${i} has no class to fake (an interface or a cycle): construct it by hand`,
      );
    if (!fakes.has(type)) fakes.set(type, defaultFake(type, manager));
    return fakes.get(type);
  });
  const sut = new Service(...(dependencies as never[]));
  return {
    sut,
    /** The fake manager every transaction of the fake DataSource runs on. */
    manager,
    /** The fake given to the service for dependency `type`. */
    mock<T>(type: Class<T>): jest.Mocked<T> {
      if (!fakes.has(type)) throw new Error(`${Service.name} takes no ${type.name}`);
      return fakes.get(type) as jest.Mocked<T>;
    },
  };
}

function defaultFake(type: Class, manager: EntityManager): unknown {
  if (type.name === 'DataSource') {
    const transaction = jest.fn(async (work: (m: EntityManager) => unknown) => work(manager));
    return { manager, transaction };
  }
  if (type === Clock)
    return {
      now: jest.fn(() => new Date(TEST_SERVICE_NOW)),
      nowMs: jest.fn(() => TEST_SERVICE_NOW.getTime()),
    };
  return automock(type);
}
