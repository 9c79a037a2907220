/**
 * Where every query of the photo timeline starts (features/gallery's galleryKeys.all): what
 * changes photos (the trash) refreshes it without knowing the page that lists them.
 */
export const timelineRoot = ['gallery'] as const;

/**
 * Where every album query starts (features/albums' albumKeys.all): a photo turned is a new cover
 * picture for the albums it is the cover of, asked again without knowing the page that lists them.
 */
export const albumsRoot = ['albums'] as const;
