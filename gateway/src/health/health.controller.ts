import { Controller, Get } from '@nestjs/common';
import { Public } from '../auth/auth.decorators.js';

/** The probe of the gateway process itself: it answers when the gateway can serve. */
@Controller('health')
export class HealthController {
  @Public()
  @Get()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
