import type * as S from '../schemas.ts';
import type { Handler } from '../route-def.ts';

export const accessToken: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) =>
  services.nodeAccess.mint(actor, params.id);
