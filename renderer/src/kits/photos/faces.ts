import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, data } from '../../api/client.ts';
import { events } from '../../api/events.ts';
import type { Answer } from '../../api/types.ts';

export type PhotoFace = Answer<'/photos/{id}/faces', 'get'>['items'][number];
export type FaceBox = PhotoFace['box'];

/**
 * Where the faces of photos are asked (the viewer's "People in this photo"): naming, merging or
 * moving a face out on a person's page asks them again under this root.
 */
export const photoFacesRoot = ['photo-faces'] as const;

/** The faces in a photo and who each is, as the server lets the caller know them (none for a photo it does not name). */
export function usePhotoFaces(nodeId: string | null) {
  const queryClient = useQueryClient();
  // Faces found, named or hidden while the photo is open: the server tells whoever may see it (photo.faces).
  useEffect(() => {
    if (nodeId === null) return;
    return events.on((message) => {
      if (message.type !== 'photo.faces') return;
      if (!(message.payload as { node_ids: string[] }).node_ids.includes(nodeId)) return;
      void queryClient.invalidateQueries({ queryKey: [...photoFacesRoot, nodeId] });
    });
  }, [queryClient, nodeId]);
  return useQuery({
    queryKey: [...photoFacesRoot, nodeId],
    queryFn: () => data(api.GET('/photos/{id}/faces', { params: { path: { id: nodeId! } } })),
    enabled: nodeId !== null,
    staleTime: 30_000,
  });
}

/**
 * A face's box on the picture as shown: boxes are found on the upright photo, and a photo the
 * family turned is shown turned (`rotation` degrees clockwise).
 */
export function turnBox(box: FaceBox, rotation = 0): FaceBox {
  switch (((rotation % 360) + 360) % 360) {
    case 90:
      return { x: 1 - box.y - box.h, y: box.x, w: box.h, h: box.w };
    case 180:
      return { x: 1 - box.x - box.w, y: 1 - box.y - box.h, w: box.w, h: box.h };
    case 270:
      return { x: box.y, y: 1 - box.x - box.w, w: box.h, h: box.w };
    default:
      return box;
  }
}
