// @snowkey/http/nest: a pipe for ids coming in, an interceptor for bigints going out.
import {
  type ArgumentMetadata,
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  Optional,
  type PipeTransform,
} from '@nestjs/common';
import { idReplacer } from '@snowkey/core';
import { map, type Observable } from 'rxjs';
import { idErrorBody } from './id-error-body.js';
import { parseJsonId } from './json-ids.js';
import { assertNestCommonVersion } from './nest-version.js';

/**
 * Nest's `ParseIntPipe` for ids: `parseJsonId`, or a public-id codec's `decode`; a bad id is a
 * `BadRequestException` with an {@link IdErrorBody}.
 *
 * @example
 * import { Controller, Get, Param } from '@nestjs/common';
 *
 * @Controller('players')
 * class PlayersController {
 *   @Get(':id') find(@Param('id', ParseIdPipe) id: bigint) { return findPlayer(id); }
 *   @Get('public/:pid') byPublicId(@Param('pid', new ParseIdPipe(playerIds)) id: bigint) { return findPlayer(id); }
 * }
 */
@Injectable()
export class ParseIdPipe implements PipeTransform<unknown, bigint> {
  readonly #codec: { decode(value: string, argument?: string): bigint } | undefined;
  // @Optional: when Nest builds the pipe itself (`@Param('id', ParseIdPipe)`), there is no codec to inject.
  constructor(@Optional() codec?: { decode(value: string, argument?: string): bigint }) {
    assertNestCommonVersion();
    this.#codec = codec;
  }
  transform(value: unknown, metadata: ArgumentMetadata): bigint {
    const argument = metadata.data ? `${metadata.type}.${metadata.data}` : metadata.type;
    try {
      return this.#codec ? this.#codec.decode(value as string, argument) : parseJsonId(value, argument);
    } catch (err) {
      const body = idErrorBody(err);
      if (body) throw new BadRequestException(body);
      throw err;
    }
  }
}

function isJsonData(data: unknown): boolean {
  if (data === null || typeof data !== 'object') return typeof data === 'bigint';
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return false;
  const streamy = data as { pipe?: unknown; getStream?: unknown };
  return typeof streamy.pipe !== 'function' && typeof streamy.getStream !== 'function';
}

/**
 * Writes every bigint of a handler's result as its exact decimal string, on any Nest platform.
 *
 * @example
 * import { NestFactory } from '@nestjs/core';
 * const app = await NestFactory.create(AppModule);
 * app.useGlobalInterceptors(new IdJsonInterceptor());
 */
@Injectable()
export class IdJsonInterceptor implements NestInterceptor {
  constructor() {
    assertNestCommonVersion();
  }
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(map((data: unknown) => (isJsonData(data) ? JSON.parse(JSON.stringify(data, idReplacer)) : data)));
  }
}
