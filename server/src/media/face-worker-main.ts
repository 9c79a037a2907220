/**
 * The face worker process: finds and describes the faces (and the things) of one picture at a time. Apart from
 * the server, and at the lowest CPU priority, so the family's requests and thumbnails go first
 * and a picture that crashes the decoder takes only this process with it.
 */
import sharp from 'sharp';
import { FaceModel, type FoundFace, type Looks } from './face-model.ts';
import type { FoundThing } from './things.ts';

export interface FaceJob {
  id: number;
  file: string;
  looks: Looks;
}

export interface FaceReply {
  id: number;
  faces: FoundFace[] | null;
  things: FoundThing[] | null;
  failure: string | null;
  /** The CPU this process spent on the picture (every thread): what the scanner paces by. */
  cpu_ms: number;
}

sharp.cache(false);
const model = FaceModel.load();

process.on('message', (job: FaceJob) => {
  const cpu = process.cpuUsage();
  const spent = () => {
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000;
  };
  void model
    .then((m) => m.look(job.file, job.looks))
    .then(
      ({ faces, things }) => reply({ id: job.id, faces, things, failure: null, cpu_ms: spent() }),
      (error: unknown) => reply({ id: job.id, faces: null, things: null, failure: String(error), cpu_ms: spent() }),
    );
});

process.on('disconnect', () => process.exit(0));

function reply(message: FaceReply): void {
  process.send?.(message);
}
