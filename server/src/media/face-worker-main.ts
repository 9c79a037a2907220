/**
 * The face worker process: finds and describes the faces of one picture at a time. Apart from
 * the server, and at the lowest CPU priority, so the family's requests and thumbnails go first
 * and a picture that crashes the decoder takes only this process with it.
 */
import sharp from 'sharp';
import { FaceModel, type FoundFace } from './face-model.ts';

export interface FaceJob {
  id: number;
  file: string;
}

export interface FaceReply {
  id: number;
  faces: FoundFace[] | null;
  failure: string | null;
}

sharp.cache(false);
const model = FaceModel.load();

process.on('message', (job: FaceJob) => {
  void model
    .then((m) => m.find(job.file))
    .then(
      (faces) => reply({ id: job.id, faces, failure: null }),
      (error: unknown) => reply({ id: job.id, faces: null, failure: String(error) }),
    );
});

process.on('disconnect', () => process.exit(0));

function reply(message: FaceReply): void {
  process.send?.(message);
}
