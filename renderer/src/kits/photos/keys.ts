/**
 * Where every query of the photo timeline starts (features/gallery's galleryKeys.all): what
 * changes photos (the trash) refreshes it without knowing the page that lists them.
 */
export const timelineRoot = ['gallery'] as const;
