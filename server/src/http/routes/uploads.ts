import type * as S from '../schemas.ts';
import type { Handler } from '../route-def.ts';
import { tusCreate, tusDelete, tusHead, tusOptions, tusPatch } from '../../uploads/tus-protocol.ts';

export const options: Handler<undefined, undefined, undefined, 'none'> = ({ koa }) => tusOptions(koa);
export const create: Handler = ({ koa, services, actor }) => tusCreate(koa, services, actor);
export const head: Handler<undefined, undefined, typeof S.IdParam> = ({ koa, services, actor, params }) =>
  tusHead(koa, services, actor, params.id);
export const patch: Handler<undefined, undefined, typeof S.IdParam> = ({ koa, services, actor, params }) =>
  tusPatch(koa, services, actor, params.id);
export const terminate: Handler<undefined, undefined, typeof S.IdParam> = ({ koa, services, actor, params }) =>
  tusDelete(koa, services, actor, params.id);
