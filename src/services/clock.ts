import { randomBytes, randomUUID } from 'node:crypto'

/** Time and randomness are injected so tests can control both. */
export interface Clock {
  now(): Date
}

export interface RandomSource {
  bytes(length: number): Buffer
  uuid(): string
}

export const systemClock: Clock = { now: () => new Date() }

export const systemRandom: RandomSource = {
  bytes: (length) => randomBytes(length),
  uuid: () => randomUUID(),
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: number

  constructor(start: Date | string = '2026-01-05T12:00:00.000Z') {
    this.current = new Date(start).getTime()
  }

  now(): Date {
    return new Date(this.current)
  }

  advance(seconds: number): void {
    this.current += seconds * 1000
  }

  set(at: Date | string): void {
    this.current = new Date(at).getTime()
  }
}

export const iso = (date: Date): string => date.toISOString()

/** The UTC half-hour a moment falls in: visits count once per participant per interval. */
export const visitInterval = (date: Date): number => Math.floor(date.getTime() / 1_800_000)

export const utcDate = (date: Date): string => date.toISOString().slice(0, 10)
