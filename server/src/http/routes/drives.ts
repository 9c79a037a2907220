import type * as S from '../schemas.ts';
import type { Handler } from '../route-def.ts';

export const list: Handler<undefined, undefined, undefined, 'admin'> = ({ services, actor }) => services.drives.list(actor);

export const format: Handler<typeof S.FormatBody, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params, body }) =>
  services.drives.format(actor, params.id, body);
