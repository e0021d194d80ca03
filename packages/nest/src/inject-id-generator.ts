import { Inject, Param, type PipeTransform, type Type } from '@nestjs/common';
import { ParseIdPipe } from '@snowkey/http/nest';
import { SNOWKEY_GENERATOR } from './tokens.js';

/**
 * Injects the module's generator: `@Inject(SNOWKEY_GENERATOR)`, so no decorator metadata is needed.
 *
 * @example
 * import type { IdGenerator } from '@snowkey/core';
 * @Injectable()
 * class OrdersService {
 *   constructor(@InjectIdGenerator() private readonly ids: IdGenerator) {}
 *   newOrderId(): bigint { return this.ids.nextId(); }
 * }
 */
export function InjectIdGenerator(): PropertyDecorator & ParameterDecorator {
  return Inject(SNOWKEY_GENERATOR);
}

/**
 * A route parameter read as a key: `@Param(name, ParseIdPipe, ...pipes)`, so a bad id is a 400
 * whose body names `param.<name>`.
 *
 * @example
 * @Controller('players')
 * class PlayersController {
 *   @Get(':id') find(@IdParam('id') id: bigint) { return findPlayer(id); }
 * }
 */
export function IdParam(name: string, ...pipes: (Type<PipeTransform> | PipeTransform)[]): ParameterDecorator {
  return Param(name, ParseIdPipe, ...pipes);
}
