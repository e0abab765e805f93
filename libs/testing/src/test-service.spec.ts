import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '@gatehouse/platform';
import { newTestService, TEST_SERVICE_NOW } from './test-service';

class Notes {
  async add(_text: string): Promise<number> {
    return 1;
  }
}
class Other {}

@Injectable()
class NoteTaker {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notes: Notes,
    private readonly clock: Clock,
  ) {}

  take(text: string): Promise<number> {
    return this.dataSource.transaction(() =>
      this.notes.add(`${this.clock.now().toISOString()} ${text}`),
    );
  }
}

describe('newTestService', () => {
  it('fakes each dependency by its class: a transaction runs at once, the clock stands still, a repository answers as told', async () => {
    const { sut, mock } = newTestService(NoteTaker);
    mock(Notes).add.mockResolvedValue(7);
    expect(await sut.take('hello')).toBe(7);
    expect(mock(Notes).add.mock.calls).toEqual([[`${TEST_SERVICE_NOW.toISOString()} hello`]]);
    expect(mock(DataSource).transaction).toHaveBeenCalledTimes(1);
  });

  it('a method the test did not fake fails by name; a class the service does not take is refused', async () => {
    const { sut, mock } = newTestService(NoteTaker);
    await expect(sut.take('hello')).rejects.toThrow('Notes.add is not faked in this test');
    expect(() => mock(Other)).toThrow('NoteTaker takes no Other');
  });

  it('uses the fakes given for a class instead', async () => {
    const { sut } = newTestService(NoteTaker, [[Notes, { add: async () => 42 }]]);
    expect(await sut.take('x')).toBe(42);
  });
});
