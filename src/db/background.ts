/**
 * Work that runs after a request's transaction commits (alert delivery, ...): started once, never
 * awaited by the request, failures logged and never returned to the caller. `settled()` lets a
 * graceful shutdown (and a test) wait for what is still running.
 */
export class Background {
  private readonly running = new Set<Promise<void>>()
  private readonly report: (err: unknown) => void

  constructor(report: (err: unknown) => void) {
    this.report = report
  }

  start(task: () => void | Promise<void>): void {
    const run: Promise<void> = Promise.resolve()
      .then(task)
      .catch((err: unknown) => this.report(err))
      .finally(() => this.running.delete(run))
    this.running.add(run)
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running])
  }
}
