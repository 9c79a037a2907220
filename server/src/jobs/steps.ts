import type { Job, Schedule } from './job.ts';

export interface Step {
  name: string;
  run(): unknown;
}

/** The steps of one run that failed, each with its own error: the others ran all the same. */
export class StepsFailed extends Error {
  constructor(readonly failures: { step: string; error: unknown }[]) {
    super(`${failures.length} step(s) failed: ${failures.map((f) => `${f.step}: ${String(f.error)}`).join('; ')}`);
    this.name = 'StepsFailed';
  }
}

/**
 * A job made of steps run in order, each on its own: one that fails (a full disk refusing the
 * expiry of old sessions) does not keep the later ones from running (emptying the trash, which
 * frees space). The run fails, with every step that failed, once all have had their turn.
 */
export function jobOfSteps(name: string, schedule: Schedule, steps: Step[]): Job {
  return {
    name,
    schedule,
    async run(signal) {
      const failures: { step: string; error: unknown }[] = [];
      for (const step of steps) {
        if (signal.aborted) break;
        try {
          await step.run();
        } catch (error) {
          failures.push({ step: step.name, error });
        }
      }
      if (failures.length > 0) throw new StepsFailed(failures);
    },
  };
}
