import type { Logger } from './log.ts';

/** What an area answers once it has started: how to stop it, and what later areas need of it. */
export interface Started {
  stop(): void | Promise<void>;
}

/**
 * One part of the server that starts and stops as a whole: the data folder, the web server, the
 * home network, the media workers, the jobs... (areas/, home-network/). `start` gets what the
 * areas started before it made (its context); it either starts all of its part or cleans up what
 * it began and throws.
 */
export interface Area<Context, Handle extends Started = Started> {
  readonly name: string;
  start(context: Context): Handle | Promise<Handle>;
}

/**
 * The areas of one running server, in the order they started. Stopping is that order reversed,
 * by construction: an area stops before everything it was started on (the jobs before the
 * services they call, the web server before the database it reads), and a new area is a new file
 * and one `start` line, never an edit of a hand-ordered shutdown list.
 */
export class Lifecycle {
  private readonly started: { name: string; handle: Started }[] = [];
  private stopping: Promise<void> | null = null;

  constructor(private readonly log: Logger) {}

  /**
   * Starts `area` and answers its handle; its stop becomes the first that `stop()` runs. A start
   * that fails stops the areas already started (last first) and throws its error.
   */
  async start<Context, Handle extends Started>(area: Area<Context, Handle>, context: Context): Promise<Handle> {
    if (this.stopping) throw new Error(`${area.name} cannot start: the server is stopping`);
    let handle: Handle;
    try {
      handle = await area.start(context);
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.started.push({ name: area.name, handle });
    return handle;
  }

  /**
   * Stops the started areas, the last started first, each awaited before the next. One whose
   * stop fails is logged and the others still stop: a database left open, or a data folder left
   * locked, would be worse than one area not stopping cleanly. Resolves once all have been tried.
   */
  stop(): Promise<void> {
    return (this.stopping ??= (async () => {
      for (const { name, handle } of [...this.started].reverse()) {
        try {
          await handle.stop();
        } catch (error) {
          this.log.error('could not stop cleanly', { area: name, error: String(error) });
        }
      }
    })());
  }
}
