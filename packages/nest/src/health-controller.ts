import { Controller, Get, Header, Inject, ServiceUnavailableException, type Type } from '@nestjs/common';
import type { SnowkeyHealth } from '@snowkey/core';
import { type HealthProbe, healthStatus } from '@snowkey/http';
import { SnowkeyService } from './snowkey-service.js';

function answer(report: SnowkeyHealth, probe: HealthProbe): SnowkeyHealth {
  // The exception's object is the response body as it is: the report, with a 503.
  if (healthStatus(report, probe) !== 200) throw new ServiceUnavailableException(report);
  return report;
}

/** The controller `healthPath` registers: `GET <path>/ready` and `GET <path>/live`. */
export function healthController(path: string): Type<unknown> {
  @Controller(path)
  class SnowkeyHealthController {
    constructor(@Inject(SnowkeyService) private readonly snowkey: SnowkeyService) {}

    @Get('ready')
    @Header('cache-control', 'no-store')
    ready(): SnowkeyHealth {
      return answer(this.snowkey.health(), 'ready');
    }

    @Get('live')
    @Header('cache-control', 'no-store')
    live(): SnowkeyHealth {
      return answer(this.snowkey.health(), 'live');
    }
  }
  return SnowkeyHealthController;
}
