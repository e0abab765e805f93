/** Injectable time source; tests replace it to move time instead of waiting. */
export class Clock {
  now(): Date {
    return new Date();
  }
  nowMs(): number {
    return this.now().getTime();
  }
}
