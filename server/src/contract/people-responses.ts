import { z } from 'zod';

/** Where a face is in its picture: fractions of the upright picture's width and height (0 to 1). */
export const FaceBox = z.object({
  x: z.number().describe('Left edge, a fraction of the width'),
  y: z.number().describe('Top edge, a fraction of the height'),
  w: z.number().describe('Width, a fraction of the width'),
  h: z.number().describe('Height, a fraction of the height'),
});

/** Someone whose face is in the account's own photos. */
export const Person = z.object({
  id: z.string(),
  name: z.string().nullable().describe('What the family called them; null until named'),
  hidden: z.boolean().describe('Left out of People by choice (their photos stay where they are)'),
  photo_count: z.number().int().describe('Photos (and videos) they are in that the account can see: not in the trash, never Private'),
  cover: z
    .object({
      face_id: z.string(),
      node_id: z.string().describe('The photo whose thumbnail shows the face'),
      version: z.number().int().describe("The photo's version, for its thumbnail's URL"),
      rotation: z
        .number()
        .int()
        .describe('Degrees clockwise the family turned the photo (its thumbnail comes turned; the box is on it unturned)'),
      box: FaceBox,
    })
    .describe("Their clearest face: crop the photo's thumbnail to the box"),
});
export type Person = z.output<typeof Person>;

export const PeopleList = z.object({
  items: z.array(Person).describe('Most photos first'),
  progress: z
    .object({ waiting: z.number().int(), done: z.number().int() })
    .describe("The account's own photos and videos still to be looked at for faces, and those looked at (others' are not counted)"),
});
export type PeopleList = z.output<typeof PeopleList>;

/** A face in a photo, and who it is as the photo's owner named them. */
export const PhotoFace = z.object({
  id: z.string(),
  box: FaceBox,
  person_id: z.string().nullable().describe("The owner's person (null in someone else's photo: their People is theirs)"),
  name: z
    .string()
    .nullable()
    .describe("The name the photo's owner gave them, if named (in someone else's photo, only named people they did not hide are listed)"),
});
export type PhotoFace = z.output<typeof PhotoFace>;

export const PhotoFaces = z.object({ items: z.array(PhotoFace) });
export type PhotoFaces = z.output<typeof PhotoFaces>;

export const FaceMovedOut = z.object({ person: Person.describe('The new person the face is now alone in') });
export type FaceMovedOut = z.output<typeof FaceMovedOut>;

/** One of a person's faces, to check that it is them. */
export const PersonFace = z.object({
  id: z.string(),
  node_id: z.string().describe('The photo the face is in'),
  version: z.number().int().describe("The photo's version, for its thumbnail's URL"),
  rotation: z
    .number()
    .int()
    .describe('Degrees clockwise the family turned the photo (its thumbnail comes turned; the box is on it unturned)'),
  name: z.string().describe("The photo's file name"),
  box: FaceBox,
});
export type PersonFace = z.output<typeof PersonFace>;
